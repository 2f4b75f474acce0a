# Map header chunks, skippable map chunks, item header chunks (core/gbx/map/map_extra.c, item/item.c header table).
rebyte_add_script_test(gbx_mapextra_samples gbx_mapextra/samples.sh)
rebyte_add_script_test(gbx_mapextra_corpus gbx_mapextra/corpus.sh)
