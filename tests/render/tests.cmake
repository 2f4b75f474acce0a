# rebyte render (core/render/, the formats' plan hooks): pictures of the samples decoded by an
# independent reader (the PNG readers of tests/cli and tests/datawin), a patch's changes; and (long) every map, ghost, replay
# and data.win of the corpus and the public test world; `info` naming every real file's game and era.
if(PYTHON3)
  add_test(NAME render_basics COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/render/render_basics.py
    $<TARGET_FILE:rebyte> ${PROJECT_SOURCE_DIR})
  add_test(NAME render_sweep COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/render/render_sweep.py
    $<TARGET_FILE:rebyte> ${REBYTE_SHARED})
  set_tests_properties(render_sweep PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77)
  add_test(NAME info_origin COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/render/info_origin.py
    $<TARGET_FILE:rebyte> ${REBYTE_SHARED})
  set_tests_properties(info_origin PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77)
endif()
