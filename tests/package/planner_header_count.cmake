# Counts the planner's headers: include/hcisim/**/*.hpp outside model/, plus the version.hpp
# the build generates; fails above MAX, naming them.
file(GLOB_RECURSE headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/hcisim/*.hpp)
list(FILTER headers EXCLUDE REGEX "^hcisim/model/")
list(APPEND headers hcisim/version.hpp)
list(LENGTH headers n)
if(n GREATER MAX)
  list(JOIN headers "\n  " names)
  message(FATAL_ERROR "${n} planner headers, at most ${MAX}:\n  ${names}")
endif()
message(STATUS "${n} planner headers (at most ${MAX})")
