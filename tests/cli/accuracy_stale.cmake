# accuracy --check on a copy of data/ and the scenarios: current as committed, stale (exit 1,
# naming the command that rewrites the table) once an input changes (found by the inputs hash,
# before the model's fingerprint runs).
# -DCLI=path -DSRC=source tree -DWORK_DIR=scratch
set(copy ${WORK_DIR}/accuracy-stale)
file(REMOVE_RECURSE ${copy})
file(MAKE_DIRECTORY ${copy}/examples)
file(COPY ${SRC}/data DESTINATION ${copy})
file(COPY ${SRC}/examples/scenarios DESTINATION ${copy}/examples)
execute_process(COMMAND ${CMAKE_COMMAND} -E env HCISIM_DATA_DIR=${copy}/data ${CLI} accuracy --check
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "is current")
  message(FATAL_ERROR "the copy should be current: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
foreach(input data/calibration.yaml examples/scenarios/seed001-vxrail-esa-raid6-100gbe-oltp32k.yaml)
  file(APPEND ${copy}/${input} "\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env HCISIM_DATA_DIR=${copy}/data ${CLI} accuracy --check
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "accuracy.csv is stale.*run `hcisim accuracy --write")
    message(FATAL_ERROR "a changed ${input} should make the table stale: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  configure_file(${SRC}/${input} ${copy}/${input} COPYONLY)   # back as it was
endforeach()
