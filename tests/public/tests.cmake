# The public test world (tests/public/README.md): gathered from mirrors, never shipped.
rebyte_add_script_test(public_world public/world_test.sh)
set_tests_properties(public_world PROPERTIES LABELS long TIMEOUT 3600)
