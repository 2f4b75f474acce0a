"""The check a chunk's fixture test makes of its models (dumps of the built fixture and of the
patched file): the chunk was read typed, re-reads to the fixture's model, the patch changed no
other chunk, and the patched chunk is exactly the fixture with the edits. Found through
PYTHONPATH (set by common.sh)."""
import json


def split(path, chunk_id):
    """The chunk `chunk_id` of a dump, and every chunk but it and STRG (where new texts go)."""
    chunks = json.load(open(path))["chunks"]
    chunk = [c for c in chunks if c["id"] == chunk_id][0]
    return chunk, [c for c in chunks if c["id"] not in (chunk_id, "STRG")]


def check_fixture_edit(chunk_id, fixture_path, built_path, edited_path, apply_edits):
    """apply_edits(fixture_chunk) makes, in place, the edits the patch made."""
    fixture, _ = split(fixture_path, chunk_id)
    built, others = split(built_path, chunk_id)
    edited, edited_others = split(edited_path, chunk_id)
    assert "data" not in built, "%s kept opaque" % chunk_id
    assert built == fixture, "the built %s does not re-read to the fixture's model" % chunk_id
    assert edited_others == others, "the edit changed another chunk"
    apply_edits(fixture)
    assert edited == fixture, "the edited %s is not exactly the fixture with the edits" % chunk_id
