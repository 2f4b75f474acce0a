# Map header chunks, skippable map chunks, item header chunks (core/gbx/map/map_extra.c, item/item.c header table).
rebyte_add_script_test(gbx_mapextra_samples gbx_mapextra/samples.sh)
rebyte_add_script_test(gbx_mapextra_corpus gbx_mapextra/corpus.sh)
# Embedded items as files: remove and replace one, checked with a Python LZO decoder and zipfile.
if(PYTHON3)
  add_test(NAME gbx_embedded_zip COMMAND ${PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/gbx_mapextra/embedded_zip.py
    $<TARGET_FILE:rebyte> ${REBYTE_SHARED}/corpus/gbx)
  set_tests_properties(gbx_embedded_zip PROPERTIES SKIP_RETURN_CODE 77)
endif()
rebyte_add_script_test(gbx_unlimiter_versions gbx_mapextra/unlimiter_versions.sh)
rebyte_add_script_test(gbx_campaign gbx_mapextra/campaign.sh)
