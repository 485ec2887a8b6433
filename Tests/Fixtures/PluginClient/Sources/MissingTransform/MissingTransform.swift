// keys.json names a transform, compactFromLayoutMode, that this target does not define.
