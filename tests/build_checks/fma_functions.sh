#!/bin/sh
# Lists the functions of an object, archive or executable ($1) whose x86 machine code holds a
# fused multiply-add (vfmadd*, vfmsub*, vfnmadd*, vfnmsub*, vfmaddsub*, vfmsubadd*), other than
# those whose names match the extended regex $2; exits 1 when there is any.
# -ffp-contract=off keeps the compiler from contracting a*b + c, but GCC's SLP vectorizer still
# fuses a*b - c*d, a*e + c*f into vfmaddsub: one rounding fewer, other bits than a portable
# build (the bed builder's touch_two_disks built other beds under -march=native).
objdump -d --no-show-raw-insn -C "$1" | awk -v allowed="$2" '
  /^[0-9a-f]+ <.*>:$/ { name = $0; sub(/^[0-9a-f]+ </, "", name); sub(/>:$/, "", name); next }
  $2 ~ /^v?fn?m(add|sub)(sub|add)?[0-9]+[ps][sd]$/ && name !~ allowed && !(name in seen) {
    seen[name] = 1; print "fused multiply-add in " name; bad = 1
  }
  END { exit bad }'
