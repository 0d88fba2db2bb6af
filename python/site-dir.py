# SPDX-License-Identifier: MIT
"""Where `meson install` puts the package spoor (argv[1]: the prefix): a folder under the
prefix that this Python reads (sys.path, or the user's site-packages), when one of its
install schemes gives one; else PREFIX/lib/python3.X/site-packages (then on PYTHONPATH).
Meson 1.0's own choice under /usr/local on Debian, lib/python3/dist-packages, is not on
Debian's sys.path; /usr/local/lib/python3.X/dist-packages (the scheme posix_local) is."""
import os
import site
import sys
import sysconfig

prefix = os.path.realpath(sys.argv[1])
read = {os.path.realpath(p) for p in sys.path if p} | {os.path.realpath(site.getusersitepackages())}
candidates = []
for base in (prefix, os.path.dirname(prefix)):  # posix_local adds the "/local" itself
    for scheme in sysconfig.get_scheme_names():
        try:
            candidates.append(sysconfig.get_path("platlib", scheme,
                                                 vars={"base": base, "platbase": base}))
        except KeyError:
            pass
for c in candidates:
    real = os.path.realpath(c)
    if real in read and (real == prefix or real.startswith(prefix + os.sep)):
        print(c)
        break
else:
    print(sysconfig.get_path("platlib", "posix_prefix", vars={"base": prefix, "platbase": prefix}))
