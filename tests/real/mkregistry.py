# SPDX-License-Identifier: MIT
"""mkregistry.py TARBALL REGISTRY URL: a static npm registry holding one
package, the `npm pack` output TARBALL (name and version read from its
package.json), for tests/real's npm test: REGISTRY/NAME is the packument
npm asks for, REGISTRY/NAME/-/FILE the tarball it names, served at URL by
python3 -m http.server."""
import base64
import hashlib
import json
import os
import shutil
import sys
import tarfile

tarball, registry, url = sys.argv[1], sys.argv[2], sys.argv[3].rstrip("/")
with tarfile.open(tarball) as t:
    meta = json.load(t.extractfile("package/package.json"))
name, version = meta["name"], meta["version"]
data = open(tarball, "rb").read()
file = os.path.basename(tarball)
os.makedirs(os.path.join(registry, name, "-"), exist_ok=True)
shutil.copyfile(tarball, os.path.join(registry, name, "-", file))
dist = {
    "tarball": f"{url}/{name}/-/{file}",
    "shasum": hashlib.sha1(data).hexdigest(),
    "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
}
packument = {
    "name": name,
    "dist-tags": {"latest": version},
    "versions": {version: dict(meta, dist=dist)},
}
# http.server answers GET /NAME with a redirect to NAME/, and serves
# NAME/index.html there: that file is the packument
with open(os.path.join(registry, name, "index.html"), "w") as f:
    json.dump(packument, f)
