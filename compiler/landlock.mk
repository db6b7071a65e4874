# The Landlock backend, compiler side (issue 4).
