# Profile-guided optimisation of the library (GCC >= 11), on by default for Release builds.
#
# 1. hcisim_pgo_gen (libsim/pgo/): the library's sources compiled again with -fprofile-generate;
# 2. hcisim_pgo_train (libsim/pgo/pgo_train.cpp) runs it on a few scenarios, writing branch
#    and call counts to <build>/pgo/ (old counts are removed first; the run is re-done when
#    the library, the trainer, the catalogs or the example scenarios change);
# 3. the library proper is compiled after that with -fprofile-use.
# Both compiles of a source get the same -dumpbase, an absolute name under <build>/pgo-names/:
# GCC names the profile file after it and keys the profile of functions with internal linkage
# (anonymous namespaces, statics) on it, so without it those would find no profile. GCC also
# puts auxiliary outputs there, so -gsplit-dwarf and -save-temps do not work with this build.
# The instrumented copy takes the library's settings as they are when hcisim_enable_pgo() is
# called: options added to the library later reach only the optimised compile, and if they
# change its control flow GCC finds the profile does not match (coverage-mismatch, a warning
# here: the build goes on, that source without a profile). So call it last.
# The profile only steers inlining, code layout and branch order: results are the same as
# without it (no -ffast-math, and the library is built with -ffp-contract=off, so no
# multiply-add is fused differently). A few value counters in the profile vary with address
# randomisation between training runs; the compiled objects came out identical in our test.
# -fprofile-partial-training keeps code the training never ran optimised as usual.
# -DHCISIM_PGO=OFF builds in one pass: with PGO on, any edit of a library source reruns the
# training and recompiles every library source.
option(HCISIM_PGO "Profile-guided optimisation of the library (GCC, Release builds)" ON)

# Gives each source of `sources` (relative to the current source directory) its -dumpbase.
function(hcisim_pgo_dumpbase sources)
  foreach(s ${sources})
    get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    set_property(SOURCE ${s} APPEND PROPERTY COMPILE_OPTIONS -dumpbase ${PROJECT_BINARY_DIR}/pgo-names/${rel})
  endforeach()
endfunction()

function(hcisim_enable_pgo target sources)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  if(NOT HCISIM_PGO OR HCISIM_SANITIZE OR NOT build_type STREQUAL "RELEASE"
     OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 11
     OR (CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR))
    return()   # the training must run on the build machine
  endif()
  set(dir ${PROJECT_BINARY_DIR}/pgo)

  # libsim/pgo/CMakeLists.txt defines hcisim_pgo_gen from these and the trainer.
  set(HCISIM_PGO_SOURCES)
  foreach(s ${sources})
    list(APPEND HCISIM_PGO_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/${s})
  endforeach()
  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/pgo)
  # The same compile and link settings as the library (those set before this call).
  foreach(prop INCLUDE_DIRECTORIES COMPILE_OPTIONS COMPILE_FEATURES LINK_LIBRARIES INTERFACE_INCLUDE_DIRECTORIES
               INTERFACE_COMPILE_FEATURES INTERFACE_LINK_LIBRARIES POSITION_INDEPENDENT_CODE CXX_EXTENSIONS
               CXX_VISIBILITY_PRESET)
    get_target_property(value ${target} ${prop})
    if(value)
      set_property(TARGET hcisim_pgo_gen PROPERTY ${prop} "${value}")
    endif()
  endforeach()
  # The training program lives in the build tree, so it reads the source tree's data/.
  get_target_property(defs ${target} COMPILE_DEFINITIONS)
  if(defs)
    set_property(TARGET hcisim_pgo_gen PROPERTY COMPILE_DEFINITIONS "${defs}")
  endif()
  target_compile_options(hcisim_pgo_gen PRIVATE -fprofile-generate=${dir} -fprofile-update=single)
  target_link_options(hcisim_pgo_gen INTERFACE -fprofile-generate)

  # What the training reads: the catalogs and calibration, and example scenarios (all of
  # them, so that the trainer's choice is not listed twice).
  file(GLOB inputs ${PROJECT_SOURCE_DIR}/data/*.csv ${PROJECT_SOURCE_DIR}/examples/scenarios/*.yaml)
  list(APPEND inputs ${PROJECT_SOURCE_DIR}/data/calibration.yaml)
  add_custom_command(OUTPUT ${dir}/profile.stamp
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir}
    COMMAND hcisim_pgo_train ${PROJECT_SOURCE_DIR}
    # Fails the build if the profile files are not where -fprofile-use looks (the engine's).
    COMMAND ${CMAKE_COMMAND} -E copy ${dir}${PROJECT_BINARY_DIR}/pgo-names/libsim/core/engine.cpp.gcda ${dir}/check.gcda
    COMMAND ${CMAKE_COMMAND} -E touch ${dir}/profile.stamp
    DEPENDS hcisim_pgo_train ${inputs}
    COMMENT "Profile-guided build: training run of the instrumented library"
    VERBATIM)
  add_custom_target(hcisim_pgo_profile DEPENDS ${dir}/profile.stamp)
  add_dependencies(${target} hcisim_pgo_profile)
  target_compile_options(${target} PRIVATE -fprofile-use=${dir} -fprofile-partial-training
                         -Wno-missing-profile   # sources the training never links in
                         -Wno-error=coverage-mismatch)
  hcisim_pgo_dumpbase("${sources}")
  # A new profile recompiles the library (source properties belong to this directory only).
  set_source_files_properties(${sources} PROPERTIES OBJECT_DEPENDS ${dir}/profile.stamp)
endfunction()
