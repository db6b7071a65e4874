# SPDX-License-Identifier: MIT
"""mkwheel.py INDEX: a tiny pure-Python wheel, polc-tiny 1.0 (polc_tiny.twice),
and a PEP 503 simple index for it under INDEX/simple/, for tests/real's
pip test. Written by hand with zipfile (a wheel is a zip with a dist-info
folder and a RECORD of hashes), so nothing is fetched to build it."""
import base64
import hashlib
import os
import sys
import zipfile

index = sys.argv[1]
name, version = "polc_tiny", "1.0"
dist = f"{name}-{version}.dist-info"
files = {
    f"{name}/__init__.py": b"def twice(x):\n    return 2 * x\n",
    f"{dist}/METADATA": (
        f"Metadata-Version: 2.1\nName: polc-tiny\nVersion: {version}\n"
    ).encode(),
    f"{dist}/WHEEL": (
        b"Wheel-Version: 1.0\nGenerator: polc-tests\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    ),
}
record = ""
for path, data in files.items():
    digest = hashlib.sha256(data).digest()
    b64 = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    record += f"{path},sha256={b64},{len(data)}\n"
files[f"{dist}/RECORD"] = (record + f"{dist}/RECORD,,\n").encode()

project = os.path.join(index, "simple", "polc-tiny")
os.makedirs(project, exist_ok=True)
wheel = f"{name}-{version}-py3-none-any.whl"
with zipfile.ZipFile(os.path.join(project, wheel), "w") as z:
    for path, data in files.items():
        z.writestr(path, data)
with open(os.path.join(project, wheel), "rb") as f:
    sha = hashlib.sha256(f.read()).hexdigest()
with open(os.path.join(project, "index.html"), "w") as f:
    f.write(f'<!DOCTYPE html>\n<a href="{wheel}#sha256={sha}">{wheel}</a>\n')
with open(os.path.join(index, "simple", "index.html"), "w") as f:
    f.write('<!DOCTYPE html>\n<a href="polc-tiny/">polc-tiny</a>\n')
