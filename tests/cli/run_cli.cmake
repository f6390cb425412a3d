# Runs the hcisim CLI once and checks its exit code and output.
# -DCLI=path -DARGS="a;b;c" -DEXPECT_RC=n [-DEXPECT_OUT=regex] [-DEXPECT_ERR=regex] [-DWORK_DIR=dir]
# [-DSTDOUT_FILE=path] (stdout goes there instead of being checked, e.g. /dev/full)
if(WORK_DIR)
  file(MAKE_DIRECTORY ${WORK_DIR})
else()
  set(WORK_DIR ${CMAKE_CURRENT_BINARY_DIR})
endif()
if(STDOUT_FILE)
  execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_FILE ${STDOUT_FILE} ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK_DIR})
else()
  execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK_DIR})
endif()
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXPECT_OUT AND NOT out MATCHES "${EXPECT_OUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_OUT}':\n${out}")
endif()
if(EXPECT_ERR AND NOT err MATCHES "${EXPECT_ERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_ERR}':\n${err}")
endif()
