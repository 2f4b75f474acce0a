# The shape of the code and the docs: no include cycle, no dependency loop among files
# or among folders and no dead function (from the objects' symbols, nm), over the library and the
# CLI alike; every cited doc heading exists, every JSON pointer the docs show leads somewhere.
if(PYTHON3)
  add_test(NAME include_cycles COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/include_cycles.py ${PROJECT_SOURCE_DIR})
  add_test(NAME symbol_cycles COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/symbol_cycles.py ${PROJECT_SOURCE_DIR}
    $<TARGET_OBJECTS:rebyte_objects> $<TARGET_OBJECTS:rebyte> COMMAND_EXPAND_LISTS)
  add_test(NAME dead_symbols COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/dead_symbols.py ${PROJECT_SOURCE_DIR}
    ${CMAKE_BINARY_DIR} $<TARGET_OBJECTS:rebyte_objects> $<TARGET_OBJECTS:rebyte> COMMAND_EXPAND_LISTS)
  # a const document is never changed behind its reader: at most 3 casts to rb_doc/rb_node pointers
  add_test(NAME const_casts COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/const_casts.py ${PROJECT_SOURCE_DIR})
  add_test(NAME doc_citations COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/doc_citations.py ${PROJECT_SOURCE_DIR})
  # every JSON pointer the docs show leads somewhere in a sample or corpus file
  add_test(NAME doc_paths COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/structure/doc_paths.py $<TARGET_FILE:rebyte>
           ${PROJECT_SOURCE_DIR} ${REBYTE_SHARED})
  set_tests_properties(doc_paths PROPERTIES TIMEOUT 600)
endif()
