# The installed package stands on its own:
#  1. install the build into WORK_DIR/prefix, then move that prefix to WORK_DIR/moved (the
#     package must not depend on where it was installed);
#  2. copy the consumer project out of the source tree, then configure, build and install it
#     against the moved prefix, into it;
#  3. run the consumer and the installed `hcisim`: both must read the moved prefix's data
#     and give the in-tree CLI's result bit for bit. The source tree stays where it is (other
#     tests run from it at the same time), so the test shows instead that nothing comes from
#     it: the consumer is built from a copy against the prefix's headers and library, and the
#     consumer and the installed CLI print the data folder they used.
# Fails on the first step that fails.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(moved ${WORK_DIR}/moved)
if(NOT CONFIG)
  set(CONFIG Release)
endif()
function(step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGV}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
file(RENAME ${prefix} ${moved})
# A planning tool needs the planner's headers alone: without the model's (hcisim/model/,
# installed for model work) the consumer must still build.
file(REMOVE_RECURSE ${moved}/include/hcisim/model)
file(COPY ${CONSUMER_DIR}/ DESTINATION ${WORK_DIR}/consumer-src)
step(${CMAKE_COMMAND} -S ${WORK_DIR}/consumer-src -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${moved} -DCMAKE_BUILD_TYPE=${CONFIG})
# find_package found the moved prefix's package, not the build tree's.
file(STRINGS ${WORK_DIR}/build/CMakeCache.txt found REGEX "^hcisim_DIR:")
if(NOT found MATCHES "^hcisim_DIR:[A-Z]*=${moved}/")
  message(FATAL_ERROR "the consumer found hcisim at '${found}', not in ${moved}")
endif()
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --config ${CONFIG})
step(${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${moved} --config ${CONFIG})
foreach(f bin/hcisim share/hcisim/data/devices.csv share/hcisim/data/calibration.yaml share/hcisim/data/measurements.csv
          share/hcisim/examples/scenarios/seed000-nuc11-osa-optane-fio-4k-70r.yaml)
  if(NOT EXISTS ${moved}/${f})
    message(FATAL_ERROR "the installed package lacks ${f}")
  endif()
endforeach()

set(sets workload.duration_s=0.2 workload.warmup_s=0.05)
execute_process(COMMAND ${moved}/bin/consumer ${sets} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer failed (${rc})")
endif()
string(REGEX MATCH "^data: ([^\n]*)\n([^\n]*)" _ "${out}")
set(used ${CMAKE_MATCH_1})
set(consumer_row ${CMAKE_MATCH_2})
file(REAL_PATH ${moved}/share/hcisim/data expected)
file(REAL_PATH ${used} used_real)
if(NOT used_real STREQUAL expected)
  message(FATAL_ERROR "the consumer read ${used}, not the installed package's ${expected}")
endif()

# The consumer where it was built, outside the prefix: the package it was built against
# (compiled in by the package's config) still names the data.
execute_process(COMMAND ${WORK_DIR}/build/consumer ${sets} OUTPUT_VARIABLE out_built RESULT_VARIABLE rc)
string(REGEX MATCH "^data: ([^\n]*)" _ "${out_built}")
file(REAL_PATH "${CMAKE_MATCH_1}" built_real)
if(NOT rc EQUAL 0 OR NOT built_real STREQUAL expected)
  message(FATAL_ERROR "the consumer outside the prefix read '${CMAKE_MATCH_1}' (${rc}), not ${expected}")
endif()
# The installed CLI says which data it reads.
execute_process(COMMAND ${moved}/bin/hcisim --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
string(REGEX MATCH "data: ([^\n]*)" _ "${version}")
file(REAL_PATH "${CMAKE_MATCH_1}" cli_real)
if(NOT rc EQUAL 0 OR NOT cli_real STREQUAL expected)
  message(FATAL_ERROR "the installed hcisim reads '${CMAKE_MATCH_1}', not ${expected}")
endif()

set(cli_sets --set workload.duration_s=0.2 --set workload.warmup_s=0.05)
execute_process(COMMAND ${BUILD_DIR}/hcisim run --quiet --csv ${cli_sets} OUTPUT_VARIABLE in_tree RESULT_VARIABLE rc1)
execute_process(COMMAND ${moved}/bin/hcisim run --quiet --csv ${cli_sets} OUTPUT_VARIABLE installed RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message(FATAL_ERROR "hcisim run failed: in-tree ${rc1}, installed ${rc2}")
endif()
string(REGEX REPLACE "^[^\n]*\n([^\n]*).*" "\\1" in_tree_row "${in_tree}")
if(NOT installed STREQUAL in_tree)
  message(FATAL_ERROR "the installed hcisim differs from the in-tree one:\n${installed}\nvs\n${in_tree}")
endif()
if(NOT consumer_row STREQUAL in_tree_row)
  message(FATAL_ERROR "the consumer's result differs from the in-tree CLI's:\n${consumer_row}\nvs\n${in_tree_row}")
endif()
# The Python module, when built: importable from the moved prefix, reading its data.
if(PYTHON)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${moved}/lib/python3/dist-packages
                  ${PYTHON} -c "import hcisim; print(hcisim.data_dir())"
                  OUTPUT_VARIABLE py_data OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the installed Python module cannot be imported (${rc})")
  endif()
  file(REAL_PATH ${py_data} py_real)
  if(NOT py_real STREQUAL expected)
    message(FATAL_ERROR "the installed Python module read ${py_data}, not ${expected}")
  endif()
  message(STATUS "installed Python module: data from ${py_data}")
endif()
message(STATUS "installed package: data from ${used}; consumer = installed CLI = in-tree CLI")
