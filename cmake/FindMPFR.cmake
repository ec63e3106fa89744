# FindMPFR: the MPFR and GMP libraries that Boost.Multiprecision's mpfr backend needs.
# Defines the imported target MPFR::MPFR (MPFR linked before GMP). With OSVS_STATIC_DEPS the
# static archives are preferred so that binaries run on machines without these packages.
find_path(MPFR_INCLUDE_DIR mpfr.h)
find_path(GMP_INCLUDE_DIR gmp.h)
if(OSVS_STATIC_DEPS)
  find_library(MPFR_LIBRARY NAMES libmpfr.a mpfr)
  find_library(GMP_LIBRARY NAMES libgmp.a gmp)
else()
  find_library(MPFR_LIBRARY NAMES mpfr)
  find_library(GMP_LIBRARY NAMES gmp)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MPFR REQUIRED_VARS MPFR_LIBRARY GMP_LIBRARY MPFR_INCLUDE_DIR
                                  GMP_INCLUDE_DIR)
if(MPFR_FOUND AND NOT TARGET MPFR::MPFR)
  add_library(MPFR::GMP UNKNOWN IMPORTED)
  set_target_properties(MPFR::GMP PROPERTIES IMPORTED_LOCATION "${GMP_LIBRARY}"
                                             INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
  add_library(MPFR::MPFR UNKNOWN IMPORTED)
  set_target_properties(MPFR::MPFR PROPERTIES IMPORTED_LOCATION "${MPFR_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${MPFR_INCLUDE_DIR}"
                                              INTERFACE_LINK_LIBRARIES MPFR::GMP)
endif()
