#!/bin/sh
# Build a C example (the first argument, e.g. sa.c) with `cc` and run it: what a spec names as
# its command (command = ["sh", "cc-run.sh", "sa.c"]), so that the committed specs need only a
# C compiler. The binary is cached under ${XDG_CACHE_HOME:-~/.cache}/sudoku-lab-cc by the
# source's checksum (built once; an edited source gets a new binary), then exec'd, so a
# process costs a shell start and a checksum beyond the solver's own start.
src=$1
here=$(dirname "$0")
sum=$(cksum < "$here/$src" | cut -d ' ' -f 1) || exit 1
dir=${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-lab-cc
bin=$dir/$(basename "$src" .c)-$sum
if [ ! -x "$bin" ]; then
  mkdir -p "$dir" || exit 1
  tmp=$(mktemp "$bin.XXXXXX") || exit 1
  if ! cc -O2 -o "$tmp" "$here/$src" -lm; then
    rm -f "$tmp"
    exit 1
  fi
  mv -f "$tmp" "$bin"
fi
exec "$bin"
