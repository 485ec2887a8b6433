// The generator core.
