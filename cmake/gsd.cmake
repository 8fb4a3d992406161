# The GSD library (glotzerlab/gsd, BSD-2-Clause): the C writer of HOOMD-blue's GSD files, which the
# snapshots use (docs/outputs.md, "snapshots/"). No distribution packages it for C: Debian's
# python3-gsd holds it compiled into a Python extension only. So the build takes it from the
# package that ships its source, PyPI's `gsd`: pip downloads the pinned source distribution at
# configure time (checked against its SHA-256), and gsd/gsd.c and gsd/gsd.h are compiled from
# it as they are. A machine without PyPI names a copy of that file in GRANULAR_GSD_SDIST
# (scripts/pack_gpu_deps.sh puts one in .gpu-deps/).
set(GRANULAR_GSD_VERSION 5.0.1)
set(GRANULAR_GSD_SHA256 c072d1ee934864d618039f3e7448bc79f31fe1a0f1fabfdb9cd4143a7ab2376b)
set(GRANULAR_GSD_SDIST "" CACHE FILEPATH
    "gsd-${GRANULAR_GSD_VERSION}.tar.gz, PyPI's source distribution of gsd; empty: pip downloads it")

set(gsd_dir ${CMAKE_BINARY_DIR}/_deps/gsd)
set(gsd_sdist ${GRANULAR_GSD_SDIST})
if(NOT gsd_sdist)
  set(gsd_sdist ${gsd_dir}/gsd-${GRANULAR_GSD_VERSION}.tar.gz)
  if(NOT EXISTS ${gsd_sdist})
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    message(STATUS "granular: downloading gsd ${GRANULAR_GSD_VERSION}'s source distribution (pip)")
    # --ignore-requires-python: only the source is fetched, for any interpreter that runs pip;
    # pip still builds the package's metadata, which needs its build requirements (seconds)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -m pip download --quiet --disable-pip-version-check
              --no-deps --no-binary gsd --ignore-requires-python --dest ${gsd_dir}
              gsd==${GRANULAR_GSD_VERSION}
      RESULT_VARIABLE gsd_pip ERROR_VARIABLE gsd_pip_error OUTPUT_QUIET)
    if(NOT gsd_pip EQUAL 0 OR NOT EXISTS ${gsd_sdist})
      message(FATAL_ERROR "granular: cannot download gsd ${GRANULAR_GSD_VERSION} from PyPI with "
              "${Python3_EXECUTABLE} -m pip: ${gsd_pip_error}\nGive a copy of "
              "gsd-${GRANULAR_GSD_VERSION}.tar.gz as -DGRANULAR_GSD_SDIST=PATH")
    endif()
  endif()
endif()
file(SHA256 ${gsd_sdist} gsd_sha256)
if(NOT gsd_sha256 STREQUAL GRANULAR_GSD_SHA256)
  message(FATAL_ERROR "granular: ${gsd_sdist} is not PyPI's gsd-${GRANULAR_GSD_VERSION}.tar.gz "
          "(SHA-256 ${gsd_sha256}, expected ${GRANULAR_GSD_SHA256})")
endif()
set(gsd_source ${gsd_dir}/gsd-${GRANULAR_GSD_VERSION})
if(NOT EXISTS ${gsd_source}/gsd/gsd.c)
  file(ARCHIVE_EXTRACT INPUT ${gsd_sdist} DESTINATION ${gsd_dir}
       PATTERNS gsd-${GRANULAR_GSD_VERSION}/gsd/gsd.c gsd-${GRANULAR_GSD_VERSION}/gsd/gsd.h
                gsd-${GRANULAR_GSD_VERSION}/LICENSE)
endif()

enable_language(C)
add_library(granular_gsd STATIC ${gsd_source}/gsd/gsd.c)
# its own header directory only: gsd.h is included as <gsd.h>
target_include_directories(granular_gsd SYSTEM PUBLIC ${gsd_source}/gsd)
message(STATUS "granular: gsd ${GRANULAR_GSD_VERSION} from ${gsd_sdist}")
