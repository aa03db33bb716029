"""What a change did to a memory: `mdmem diff`."""
