#!/bin/sh
# The API as a client sees it: install the build into a temporary prefix (cmake --install), then
# compile tests/api/api_client.c against the INSTALLED header and library with pkg-config only (shared,
# then static with --static), strict C11 with warnings as errors, and run both on the sample map.
# The header is also compiled as C++ when a C++ compiler is present.
# Usage: install_client.sh BUILD_DIR
. "$(dirname "$0")/../lib.sh"
build=${1:?usage: install_client.sh BUILD_DIR}
for tool in cmake pkg-config cc; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
pc=$(find "$tmp/prefix" -name rebyte.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no rebyte.pc installed"; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(pkg-config --variable=libdir rebyte)
[ "$(pkg-config --modversion rebyte)" = "$(sed -n 's/^#define REBYTE_VERSION_STRING "\(.*\)"/\1/p' "$tmp/prefix/include/rebyte.h")" ] ||
    { echo "FAIL: pkg-config's version is not the installed header's"; exit 1; }
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $(pkg-config --cflags rebyte) "$src/tests/api/api_client.c" \
    -o "$tmp/client_shared" $(pkg-config --libs rebyte) || { echo "FAIL: the client does not build against the installed library"; exit 1; }
LD_LIBRARY_PATH="$libdir" "$tmp/client_shared" "$src/samples/gbx/sample.Map.Gbx" || fails=$((fails + 1))
# the client must not reach anything but the installed header: no include path into the sources
LD_LIBRARY_PATH="$libdir" ldd "$tmp/client_shared" 2>/dev/null | grep -q "$libdir/librebyte" ||
    { echo "FAIL: the client did not load the installed shared library"; fails=$((fails + 1)); }
# shellcheck disable=SC2046
if cc -std=c11 -Wall -Werror $(pkg-config --cflags rebyte) "$src/tests/api/api_client.c" -o "$tmp/client_static" \
    "$libdir/librebyte.a" $(pkg-config --static --libs-only-other --libs-only-l rebyte | sed 's/-lrebyte//') -lpthread; then
    "$tmp/client_static" "$src/samples/gbx/sample.Map.Gbx" || fails=$((fails + 1))
else
    echo "FAIL: the client does not link statically with pkg-config --static"; fails=$((fails + 1))
fi
if command -v c++ >/dev/null 2>&1; then
    printf '#include <rebyte.h>\nint main() { rb_read_options o = RB_READ_OPTIONS_INIT; return (int)o.size == 0; }\n' >"$tmp/cxx.cpp"
    # shellcheck disable=SC2046
    c++ -Wall -Werror $(pkg-config --cflags rebyte) "$tmp/cxx.cpp" -o "$tmp/cxx" || { echo "FAIL: the header is not C++-clean"; fails=$((fails + 1)); }
else
    echo "(no C++ compiler: the header's C++ check skipped)"
fi
[ "$fails" -eq 0 ] || exit 1
echo "install_client: built against the installed header and library (shared and static), version $(pkg-config --modversion rebyte)"
