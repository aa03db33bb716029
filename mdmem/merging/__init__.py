"""The merge driver git runs for memory files: two versions merged fact by fact."""
