# The public API as a client sees it: the header's functions (test_api), the exported symbols
# (exports), the installed header and library through pkg-config, and one document read by several
# threads at once.
rebyte_add_test_program(test_api api/test_api.c)
add_test(NAME test_api COMMAND test_api ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
# Expansion is explicit and its failure reaches the caller (an input changed after a deferred
# read, a deferred build's JSON file gone).
rebyte_add_test_program(test_expand api/test_expand.c)
add_test(NAME expand_errors COMMAND test_expand ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx
         ${PROJECT_SOURCE_DIR}/samples/datawin/sample.win ${CMAKE_CURRENT_BINARY_DIR})
rebyte_add_script_test(exports api/exports.sh $<TARGET_FILE:rebyte_shared>)
# (a plain build only: a sanitizer's library needs its runtime in the client too)
if(NOT REBYTE_SANITIZE AND NOT REBYTE_TSAN AND NOT REBYTE_FUZZ)
  rebyte_add_script_test(api_installed_client api/install_client.sh ${CMAKE_BINARY_DIR})
endif()

# One document read by several threads at once gives each what one reader gets; under
# ThreadSanitizer (tsan.sh, label tsan) it also proves the reads race with nothing.
rebyte_add_test_program(test_concurrent_reads api/test_concurrent_reads.c)
file(GLOB_RECURSE REBYTE_SAMPLE_MODELS ${PROJECT_SOURCE_DIR}/samples/*)
list(FILTER REBYTE_SAMPLE_MODELS EXCLUDE REGEX "\\.(json|md)$")
add_test(NAME concurrent_reads COMMAND test_concurrent_reads ${REBYTE_SAMPLE_MODELS})
if(NOT REBYTE_TSAN AND NOT REBYTE_SANITIZE)
  rebyte_add_script_test(tsan_concurrent_reads api/tsan.sh ${CMAKE_BINARY_DIR}/tsan)
  set_tests_properties(tsan_concurrent_reads PROPERTIES LABELS tsan TIMEOUT 900)
endif()
