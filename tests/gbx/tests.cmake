# GBX, the container and its maps (core/gbx/, core/gbx/map/) (the corpus round trip is a corpus law,
# tests/engine/tests.cmake): the class tables, the bundled sample maps and their patches, the cookbook
# patches (the gallery of mods for any map among them) on the sample, every map of the public test
# world and every GBX file of the corpus (each output re-read, written again and its diff re-applied
# on the maps read once), items
# downgrade, header copies and their XML spellings, parallel lists, the law of adding and map thumbnails.
rebyte_add_unit_test(test_gbx_tables gbx/test_gbx_tables.c)
rebyte_add_script_test(gbx_samples gbx/samples.sh)
rebyte_add_test_program(test_cookbook gbx/test_cookbook.c)
# (under the sanitizers the corpus part would take the better part of an hour: sample only)
if(REBYTE_SANITIZE)
  add_test(NAME gbx_cookbook COMMAND test_cookbook ${PROJECT_SOURCE_DIR}/samples/gbx/cookbook
    ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
else()
  add_test(NAME gbx_cookbook COMMAND test_cookbook ${PROJECT_SOURCE_DIR}/samples/gbx/cookbook
    ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx ${REBYTE_SHARED}/corpus/gbx
    ${REBYTE_SHARED}/public/maps ${REBYTE_SHARED}/public/maps-tm2020)
endif()
set_tests_properties(gbx_cookbook PROPERTIES TIMEOUT 1800)
# One patch for every map: the gallery's raise-blocks in one `apply -j2 --in-place` batch over
# copies of every corpus and public map; each raised (checked in the dump) and exact, or refused
# with its reason.
if(PYTHON3)
  add_test(NAME gbx_raise_blocks_batch COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/raise_blocks_batch.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/cookbook/raise-blocks.patch.json
    ${REBYTE_SHARED}/corpus/gbx ${REBYTE_SHARED}/public/maps ${REBYTE_SHARED}/public/maps-tm2020)
  set_tests_properties(gbx_raise_blocks_batch PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77)
endif()
if(PYTHON3)
  add_test(NAME gbx_downgrade_items COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/downgrade.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx ${REBYTE_SHARED}/corpus/gbx)
  set_tests_properties(gbx_downgrade_items PROPERTIES TIMEOUT 600)
  # the sample, every corpus map and 30 maps of the public set (tests/public/maps.tsv; where not
  # gathered, the sample and the corpus alone); a corpus map gets the same edits either way, so
  # one test covers both (the corpus-only run it replaced checked a subset of these)
  add_test(NAME gbx_header_copies_public COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/header_copies.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx ${REBYTE_SHARED}/corpus/gbx
    ${REBYTE_SHARED}/public/maps)
  set_tests_properties(gbx_header_copies_public PROPERTIES TIMEOUT 1800 LABELS long)
  # each era's spelling of the XML's copies on maps the project writes, a tool-written map renamed
  add_test(NAME gbx_xml_spellings COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/xml_spellings.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.json)
  add_test(NAME gbx_parallel_lists COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/parallel.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx ${REBYTE_SHARED}/corpus/gbx
    ${REBYTE_SHARED}/public/maps)
  set_tests_properties(gbx_parallel_lists PROPERTIES TIMEOUT 600)
endif()
if(PYTHON3)
  # every class with a table has its row in gbx.md's class index, and every row a class and file
  add_test(NAME gbx_class_index COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx/gbx_class_index.py ${PROJECT_SOURCE_DIR})
endif()

# Map thumbnails from ordinary pictures (docs/formats/gbx.md "Assets"): a plain JPEG, a PNG and a
# JPEG turned by its EXIF put back, extracted again and compared pixel by pixel, flip included, by
# thumbnail_check (libjpeg and libpng called directly, none of rebyte's code).
add_executable(thumbnail_check gbx/thumbnail_check.c)
target_link_libraries(thumbnail_check PRIVATE PkgConfig::JPEG PkgConfig::PNG)
rebyte_add_script_test(gbx_thumbnails gbx/thumbnails.sh $<TARGET_FILE:thumbnail_check>)
rebyte_add_script_test(gbx_apostrophe_rename gbx/apostrophe_rename.sh)
# every XML copy of every corpus and public-world map derives (no header-copies warning)
rebyte_add_script_test(gbx_xml_derived gbx/xml_derived.sh)
# The law of adding (tests/gbx/test_copy_law.c): on every map, a waypoint block, another block and
# an item copied (the item to the end and to the start) verify, pass check and diff back in at
# most 3 operations; the sample in the quick run, the corpus and the public maps under `long`.
rebyte_add_test_program(test_copy_law gbx/test_copy_law.c)
add_test(NAME gbx_copy_law COMMAND test_copy_law ${PROJECT_SOURCE_DIR}/samples/gbx/sample.Map.Gbx)
add_test(NAME gbx_copy_law_corpus COMMAND test_copy_law ${REBYTE_SHARED}/corpus/gbx ${REBYTE_SHARED}/public/maps
  ${REBYTE_SHARED}/public/maps-tm2020)
set_tests_properties(gbx_copy_law_corpus PROPERTIES TIMEOUT 3600 SKIP_RETURN_CODE 77)
