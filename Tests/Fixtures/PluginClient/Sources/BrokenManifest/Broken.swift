// Never compiles: the build stops at keys.json's errors.
