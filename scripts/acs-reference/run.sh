#!/bin/sh
# The command of the acs-check spec: execs the reference ACS built by build.sh (the binary is
# outside the repository, since the authors' code has no licence). Its location:
# $ACS_REFERENCE_BIN, else /tmp/acs-reference/acs-reference (build.sh's example OUTDIR).
bin=${ACS_REFERENCE_BIN:-/tmp/acs-reference/acs-reference}
if [ ! -x "$bin" ]; then
  echo "acs-reference: $bin is missing: build it with scripts/acs-reference/build.sh MIRROR_GIT_DIR $(dirname "$bin")" >&2
  exit 2
fi
exec "$bin"
