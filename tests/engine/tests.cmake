# The engine under every format: the archive and table units, JSON Pointer, the JSON Patch suite,
# the corpus round trip of any folder (used by the format folders too), the mutation suite, the
# fuzz harness's checks, game rules, and the sanitizer rebuild.
rebyte_add_unit_test(test_archive engine/test_archive.c)
rebyte_add_unit_test(test_table engine/test_table.c)
rebyte_add_unit_test(test_arena engine/test_arena.c)
# a read that checks its units: a unit whose re-write would differ is still reported (verify)
rebyte_add_unit_test(test_check_units engine/test_check_units.c)
rebyte_add_test_program(test_pointer engine/test_pointer.c)
add_test(NAME pointer_module COMMAND test_pointer ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)

rebyte_add_test_program(test_json_patch_conformance engine/test_json_patch_conformance.c)
add_test(NAME json_patch_conformance COMMAND test_json_patch_conformance ${REBYTE_SHARED}/conformance/json-patch)
set_tests_properties(json_patch_conformance PROPERTIES SKIP_RETURN_CODE 77)

# The fuzz harness's checks without libFuzzer, over every sample the project ships: each file
# goes to the reader detection picks (tests/fuzz/fuzz_reader.c), so every registered format with
# a sample is covered without a list here.
rebyte_add_test_program(fuzz_replay fuzz/replay_main.c fuzz/fuzz_reader.c fuzz/deferred_agree.c)
file(GLOB_RECURSE REBYTE_SAMPLE_FILES ${PROJECT_SOURCE_DIR}/samples/*)
list(FILTER REBYTE_SAMPLE_FILES EXCLUDE REGEX "\\.(json|md)$")
add_test(NAME fuzz_harness_on_samples COMMAND fuzz_replay ${REBYTE_SAMPLE_FILES})
# The patch harness's checks (tests/fuzz/fuzz_apply.c) on its seeds: operations on annotations
# refused, the removal of a stream's original taken.
rebyte_add_test_program(fuzz_apply_replay fuzz/replay_main.c fuzz/fuzz_apply.c)
target_compile_definitions(fuzz_apply_replay PRIVATE FUZZ_SAMPLES="${PROJECT_SOURCE_DIR}/samples")
file(GLOB REBYTE_APPLY_SEEDS ${PROJECT_SOURCE_DIR}/tests/fuzz/apply_seeds/*)
add_test(NAME fuzz_apply_on_seeds COMMAND fuzz_apply_replay ${REBYTE_APPLY_SEEDS})

# The corpus laws (laws.c), each a function of one file's bytes and full read, so the corpus is
# read and parsed once for all of them, its files taken two at a time (tests/test_parallel.h):
#   json_stream (law_json_stream.c): the streamed dump is the tree's text, the piecewise reader
#     gives jansson's tree and builds the file's bytes;
#   deferred (law_deferred.c): a deferred read agrees with the full read (same error, coverage,
#     notes, bytes, and model once navigated), on each file and damaged copies of it;
#   build_deferred (law_build_deferred.c): a dump built with units deferred writes the full
#     build's bytes, is the full build's model once navigated, and defers units wherever a
#     deferred read does; on the corpus the largest map's model must be at least 4 times smaller
#     than the full build's.
#   extract (law_extract.c): a deferred read, whose extraction expands only the units that hold
#     assets, extracts the full read's assets (names, bytes, notes, in order) and manifest.
#   roundtrip (law_roundtrip.c): the file written back byte for byte from its read, and with every
#     stream re-encoded it reads again with the same decoded content (what `rewrite` and `verify
#     --reencode` check); a file of a format rebyte knows that does not read fails. With
#     json_stream's build from the dump, the corpus round trip of every format folder.
#   info_deferred, check_deferred (law_info_deferred.c): `info` and `check` on a deferred read
#     give the full read's JSON and violations.
# Each on the samples (quick); all seven on every corpus file (corpus_laws, long).
rebyte_add_test_program(test_laws engine/laws.c engine/law_json_stream.c engine/law_deferred.c
                        engine/law_build_deferred.c engine/law_extract.c engine/law_roundtrip.c engine/law_info_deferred.c
                        fuzz/deferred_agree.c)
target_include_directories(test_laws PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
add_test(NAME json_stream_samples COMMAND test_laws --law json_stream ${REBYTE_SAMPLE_FILES})
add_test(NAME deferred_samples COMMAND test_laws --law deferred --damaged 8 ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME build_deferred_samples COMMAND test_laws --law build_deferred ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME roundtrip_samples COMMAND test_laws --law roundtrip ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME extract_samples COMMAND test_laws --law extract ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME info_deferred_samples COMMAND test_laws --law info_deferred --law check_deferred ${PROJECT_SOURCE_DIR}/samples)
# One test a corpus folder (corpus_laws_gbx, corpus_laws_datawin, ...): the round trip of each
# format is a test of its own, and ctest spreads the folders over its slots.
file(GLOB REBYTE_CORPUS_FOLDERS LIST_DIRECTORIES true ${REBYTE_SHARED}/corpus/*)
foreach(folder ${REBYTE_CORPUS_FOLDERS})
  if(IS_DIRECTORY ${folder})
    get_filename_component(folder_name ${folder} NAME)
    add_test(NAME corpus_laws_${folder_name} COMMAND test_laws --damaged 2 --min-saving 4 ${folder})
    set_tests_properties(corpus_laws_${folder_name} PROPERTIES LABELS long TIMEOUT 1800)
  endif()
endforeach()

rebyte_add_test_program(test_mutation engine/test_mutation.c)
# arguments: the corpus folder and the number of evenly spaced / random cases per file
# (skipped when the shared folder is absent, failed when it is there without the folder or with
# no file of a known format in it)
foreach(folder gbx datawin tres)
  add_test(NAME ${folder}_mutation COMMAND test_mutation ${REBYTE_SHARED}/corpus/${folder} 20)
  set_tests_properties(${folder}_mutation PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "REBYTE_SHARED=${REBYTE_SHARED}")
endforeach()
# the mutation suite over the project's own samples of every format (no corpus needed)
foreach(folder gbx gbx_mapextra gbx_mediatracker gbx_ghost gbx_item streamer tres datawin)
  add_test(NAME mutation_samples_${folder} COMMAND test_mutation ${PROJECT_SOURCE_DIR}/samples/${folder} 10)
endforeach()

rebyte_add_script_test(game_rules engine/game_rules.sh)

# The same checks under ASan + UBSan, in a nested build (slow: labelled so it can be run alone
# with `ctest -L sanitize` or excluded with `-LE sanitize`).
if(NOT REBYTE_SANITIZE AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  rebyte_add_script_test(sanitized_corpus engine/sanitize.sh ${CMAKE_BINARY_DIR}/sanitize)
  set_tests_properties(sanitized_corpus PROPERTIES LABELS sanitize TIMEOUT 1800)
endif()
