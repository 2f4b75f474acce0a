# GBX media tracker (core/gbx/mediatracker/): corpus coverage of clips, clip groups, tracks and media
# blocks, and fixtures authored as JSON (layouts, ambiguous chunk ids, version validation, patches).
rebyte_add_script_test(gbx_mediatracker_corpus gbx_mediatracker/corpus_coverage.sh)
rebyte_add_script_test(gbx_mediatracker_fixtures gbx_mediatracker/fixtures.sh)
rebyte_add_script_test(gbx_mediatracker_tm2020 gbx_mediatracker/tm2020_blocks.sh)
