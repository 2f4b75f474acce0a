# Text GBX (format byte 'T', `rebyte convert`; docs/formats/gbx_text.md): the sample map made
# by the project (no corpus needed), and every corpus file binary -> text -> binary compared
# with cmp (skipped without the corpus).
rebyte_add_script_test(gbx_text_fixture gbx_text/fixture.sh)
rebyte_add_script_test(gbx_text_corpus gbx_text/corpus.sh)
set_tests_properties(gbx_text_corpus PROPERTIES TIMEOUT 900)
# Values spelled otherwise than the writer spells them are refused (found by fuzz_reader).
rebyte_add_script_test(gbx_text_spellings gbx_text/spellings.sh)
