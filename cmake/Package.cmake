# Install rules and the exported CMake package `gpusim` (docs/cosimulation.md):
#   cmake --install build --prefix P
#   P/include/gpusim/<folder>/*.hpp      public headers, included as "<folder>/X.hpp"
#   P/lib/libgpusim_*.a                  one static library per folder
#   P/lib/cmake/gpusim/                  gpusimConfig.cmake, targets; link gpusim::gpusim
#                                        (gpusim::plugin for a policy plugin, docs/extending.md)
#   P/share/gpusim/platforms/*.json      platform files (found by name by the installed code)
#   P/share/gpusim/validation/           the validation studies and the Accel-Sim reference
#                                        (found by gpusim validate and correlate from any directory)
#   P/bin/gpusim                         the command line
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The one target users link: every folder library through gpusim_platform, plus C++20.
add_library(gpusim_lib INTERFACE)
target_link_libraries(gpusim_lib INTERFACE gpusim_platform)
target_compile_features(gpusim_lib INTERFACE cxx_std_20)
# Position-dependent libraries (GPUSIM_PIE off, the default) link only into a position-dependent
# executable: an executable that links gpusim::gpusim is linked -no-pie (g++ on Debian makes
# PIEs by default, and the link would fail with "relocation R_X86_64_32 ... recompile with -fPIE").
if(GPUSIM_POSITION_DEPENDENT)
  target_link_options(gpusim_lib INTERFACE "$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>")
endif()
set_target_properties(gpusim_lib PROPERTIES EXPORT_NAME gpusim)
add_library(gpusim::gpusim ALIAS gpusim_lib)

set(GPUSIM_PLATFORM_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/gpusim/platforms)
set(_gpusim_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gpusim)

install(TARGETS gpusim_lib gpusim_platform gpusim_modules gpusim_interconnect gpusim_memory
                gpusim_scheduler gpusim_workloads gpusim_common gpusim_systemc gpusim_warnings
                gpusim_plugin_api
  EXPORT gpusimTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})  # include dir: gpusim_common's INSTALL_INTERFACE
install(TARGETS gpusim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(_dir common workloads scheduler memory interconnect modules platforms)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpusim/${_dir}
    FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${GPUSIM_GENERATED_INCLUDE_DIR}/scheduler/PluginVersion.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpusim/scheduler)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/platforms/ DESTINATION ${GPUSIM_PLATFORM_INSTALL_DIR}
  FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/validation/ DESTINATION ${CMAKE_INSTALL_DATADIR}/gpusim/validation)

install(EXPORT gpusimTargets NAMESPACE gpusim:: DESTINATION ${_gpusim_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpusimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpusimConfig.cmake
  INSTALL_DESTINATION ${_gpusim_cmake_dir}
  PATH_VARS GPUSIM_PLATFORM_INSTALL_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpusimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpusimConfig.cmake ${PROJECT_BINARY_DIR}/gpusimConfigVersion.cmake
  DESTINATION ${_gpusim_cmake_dir})
