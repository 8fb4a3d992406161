#!/bin/sh
# The physics library's folders include one way (docs/architecture.md, "Inside physics, one
# way too"): the law layer (include/granular/*.hpp, impulse/) includes none of md/, md/ed/,
# impact/, and its force laws (include/granular/*.hpp) none of impulse/; impact/ never
# includes md/; md/ (md/ed/ too) and the kernels never include impact/, and outside md/ed/
# never md/ed/; the engine (md/'s own files, md/schedules/, the kernels)
# includes none of the models built on it (md/ed/, ensemble/, collision/, supported_disk/); and
# nothing below reproduce/ includes it. Prints each offending #include and exits 1.
# Usage: layer_includes.sh SRC
set -eu
cd "$1"

# the files of folders: every header and source below them
files() {
  find "$@" -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) \
    2>/dev/null | sort
}

status=0
# refuse FILES' includes of any of the PATTERNS (granular/<folder>/)
refuse() {
  what=$1
  shift
  list=$1
  shift
  for f in $list; do
    for pattern in "$@"; do
      if grep -n "#include \"granular/$pattern" "$f" >/dev/null; then
        grep -n "#include \"granular/$pattern" "$f" | sed "s|^|$f:|; s|\$|  ($what)|"
        status=1
      fi
    done
  done
}

law=$(find include/granular -maxdepth 1 -name '*.hpp' | sort; files include/granular/impulse)
refuse "the law layer includes no model" "$law" md/ impact/
# inside the law layer, one way: the impulse laws may use the force laws (a table of e_t from
# the contact law), the force laws never the impulse laws
refuse "the force laws never include impulse/" "$(find include/granular -maxdepth 1 -name '*.hpp' | sort)" impulse/
impact=$(files include/granular/impact src/impact)
refuse "impact/ never includes md/" "$impact" md/
refuse "md/ never includes impact/" "$(files include/granular/md src/md kernels)" impact/
outside_ed=$(files include/granular/md src/md kernels | grep -v '/md/ed/')
refuse "md/ outside md/ed/ never includes md/ed/" "$outside_ed" md/ed/
# the engine (md/'s own files, the GPU schedules, the kernels) includes none of the models
# built on it
models="md/ed/ md/ensemble/ md/collision/ md/supported_disk/"
engine=$(find include/granular/md src/md -maxdepth 1 -type f | sort; files include/granular/md/schedules kernels)
refuse "the engine includes none of the models built on it" "$engine" $models
# reproduce/ (the papers' stated results measured) sits on the cases: nothing below includes it
below=$(files include/granular/md include/granular/impact include/granular/impulse include/granular/io \
  include/granular/cases src/md src/impact src/io src/cases kernels; find include/granular -maxdepth 1 -name '*.hpp')
refuse "nothing below reproduce/ includes it" "$below" reproduce/

# the folders themselves: a new physics folder must be placed in this map
for d in include/granular/* src/*; do
  [ -d "$d" ] || continue
  case "$d" in
    include/granular/md | include/granular/impact | include/granular/impulse | \
      include/granular/io | include/granular/cases | include/granular/reproduce | src/md | \
      src/impact | src/io | src/cases | src/reproduce | src/cli) ;;
    *)
      echo "$d: a folder this check does not know: add it to tests/build_checks/layer_includes.sh"
      status=1
      ;;
  esac
done
for d in include/granular/md/* src/md/*; do
  [ -d "$d" ] || continue
  case "${d##*/md/}" in
    ed | ensemble | collision | supported_disk | schedules) ;;
    *)
      echo "$d: an md/ folder this check does not know: add it to tests/build_checks/layer_includes.sh"
      status=1
      ;;
  esac
done
exit $status
