# The patch engine (patch/): apply on the model and its units, refusals and their messages, values
# by wire type, portable (identity) patches, and diff's law.
rebyte_add_unit_test(test_identity_diff patch/test_identity_diff.c)
rebyte_add_unit_test(test_model_diff patch/test_model_diff.c)
# diff by units: the units a diff keeps as bytes hold the same nodes in both maps, and equal
# bytes from another reader state are read (the sample map, and the largest corpus map with items)
rebyte_add_test_program(test_diff_units patch/test_diff_units.c)
add_test(NAME diff_units COMMAND test_diff_units ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
if(EXISTS ${REBYTE_SHARED}/corpus/gbx/8c0fbe56_Summer_2021_-_25.Map.Gbx)
  add_test(NAME diff_units_corpus COMMAND test_diff_units ${REBYTE_SHARED}/corpus/gbx/8c0fbe56_Summer_2021_-_25.Map.Gbx)
endif()
rebyte_add_script_test(portable_patches patch/portable_patches.sh)
rebyte_add_script_test(patch_errors patch/patch_errors.sh)
rebyte_add_script_test(patch_values patch/patch_values.sh)
rebyte_add_script_test(patch_engine patch/patch_engine.sh)
rebyte_add_script_test(patch_drafts patch/patch_drafts.sh)
# every block of the sample map raised, diffed both ways and re-applied
rebyte_add_script_test(mass_edit_diff patch/mass_edit_diff.sh)
# a default diff of one map applied to 40 others of the corpus and the public test world (long)
rebyte_add_script_test(shared_diffs patch/shared_diffs.sh)
set_tests_properties(shared_diffs PROPERTIES LABELS long TIMEOUT 1800)
# rb_apply's outputs read back and write the same bytes, and their diffs re-apply (samples, and
# the corpus when present).
rebyte_add_test_program(test_apply patch/test_apply.c)
if(EXISTS ${REBYTE_SHARED}/corpus)
  add_test(NAME apply_paths COMMAND test_apply ${PROJECT_SOURCE_DIR} ${REBYTE_SHARED})
else()
  add_test(NAME apply_paths COMMAND test_apply ${PROJECT_SOURCE_DIR})
endif()
set_tests_properties(apply_paths PROPERTIES TIMEOUT 900)
# The law of diff: apply(diff(A, B), A) is B for random edits apply accepts (fixed seed): the
# samples in the default suite; every corpus file of every format, and one item and one block
# removed from every corpus map, under the label `long`.
rebyte_add_test_program(test_diff_law patch/test_diff_law.c)
add_test(NAME diff_law COMMAND test_diff_law --seed 28 --sequences 4 --copies ${PROJECT_SOURCE_DIR}/samples)
add_test(NAME diff_law_corpus COMMAND test_diff_law --seed 28 --sequences 1 --removals --copies ${REBYTE_SHARED}/corpus)
# equal elements made by copies, on the public test world's maps of every era
add_test(NAME diff_law_copies COMMAND test_diff_law --seed 37 --sequences 0 --copies ${REBYTE_SHARED}/public/maps ${REBYTE_SHARED}/public/maps-tm2020)
set_tests_properties(diff_law_copies PROPERTIES LABELS long TIMEOUT 3600 SKIP_RETURN_CODE 77)
set_tests_properties(diff_law_corpus PROPERTIES LABELS long TIMEOUT 3600 SKIP_RETURN_CODE 77)
# a rename (data.win: room, object, sprite, game; GROFF: section, name table entry) diffs to one
# operation: STRG's new text and the name table's order are the writer's (corpus; the public
# data.win files under `long`)
add_test(NAME diff_law_names COMMAND test_diff_law --sequences 0 --names ${REBYTE_SHARED}/corpus/datawin ${REBYTE_SHARED}/corpus/tres ${PROJECT_SOURCE_DIR}/samples/tres)
set_tests_properties(diff_law_names PROPERTIES TIMEOUT 900 SKIP_RETURN_CODE 77)
add_test(NAME diff_law_names_public COMMAND test_diff_law --sequences 0 --names ${REBYTE_SHARED}/public/datawin)
set_tests_properties(diff_law_names_public PROPERTIES LABELS long TIMEOUT 3600 SKIP_RETURN_CODE 77)

rebyte_add_script_test(patch_each patch/patch_each.sh)
# an edit that reaches no unit: apply on the deferred model gives the expanded apply's bytes
# (GROFF and data.win corpus files, edits kept and edits that expand)
rebyte_add_script_test(kept_apply patch/kept_apply.sh)
# apply on the original read deferred gives the full model's bytes or refusal: the cookbook's
# recipes, a rename, and edits of lookback strings defined before the blocks list (the sample map,
# and corpus maps of three eras when present)
rebyte_add_test_program(test_apply_units patch/test_apply_units.c)
set(REBYTE_APPLY_UNITS_MAPS ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
foreach(map 8c0fbe56_Summer_2021_-_25.Map.Gbx bb83a72c_Fall_2020_-_12.Map.Gbx be63968b_Fall_2021_-_16.Map.Gbx 1f1a505f_DemoRace1.Challenge.Gbx)
  if(EXISTS ${REBYTE_SHARED}/corpus/gbx/${map})
    list(APPEND REBYTE_APPLY_UNITS_MAPS ${REBYTE_SHARED}/corpus/gbx/${map})
  endif()
endforeach()
add_test(NAME apply_units COMMAND test_apply_units ${PROJECT_SOURCE_DIR}/samples/gbx/cookbook ${REBYTE_APPLY_UNITS_MAPS})
set_tests_properties(apply_units PROPERTIES TIMEOUT 900)
