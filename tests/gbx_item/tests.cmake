# GBX items, macroblocks, system configs and TM 1.0 block nodes (core/gbx/item/item.c): corpus coverage,
# and fixtures authored as JSON (layouts, item-type dependence, version validation, patches).
rebyte_add_script_test(gbx_item_corpus gbx_item/corpus_coverage.sh)
rebyte_add_script_test(gbx_item_fixtures gbx_item/fixtures.sh)
rebyte_add_script_test(gbx_item_mesh_edit gbx_item/mesh_edit.sh)
rebyte_add_script_test(gbx_item_solid_fixture gbx_item/solid_fixture.sh)
# TM 1.0 / Sunrise collections and block infos (core/gbx/item/block_info.c): fixtures packed independently.
rebyte_add_script_test(gbx_item_block_info gbx_item/block_info.sh)
rebyte_add_script_test(gbx_item_empty_lists gbx_item/empty_lists.sh)
set_tests_properties(gbx_item_empty_lists PROPERTIES LABELS long TIMEOUT 1800) # dumps every corpus file
rebyte_add_script_test(gbx_item_vertex_count gbx_item/vertex_count.sh)
set_tests_properties(gbx_item_vertex_count PROPERTIES LABELS long TIMEOUT 1800) # dumps every corpus file
# Kinds beyond maps packed from their layouts: a file index, a prefab main node, a spawn model.
add_test(NAME gbx_item_new_kinds COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx_item/new_kinds.py
  $<TARGET_FILE:rebyte> ${CMAKE_CURRENT_BINARY_DIR})
