# One input per bug found, built from JSON by rebyte itself (run.sh), and two made by changing
# bytes of a built file (a stale pointer, a duplicated chunk).
rebyte_add_script_test(regressions regressions/run.sh)
rebyte_add_script_test(regression_stale_pointers regressions/stale_pointers.sh)
rebyte_add_script_test(regression_duplicate_chunks regressions/duplicate_chunks.sh)
rebyte_add_script_test(deferred_regressions regressions/deferred.sh $<TARGET_FILE:test_laws>)
rebyte_add_script_test(regression_diff_two_maps regressions/diff_two_maps.sh)
rebyte_add_script_test(diff_map_pairs regressions/diff_map_pairs.sh)
