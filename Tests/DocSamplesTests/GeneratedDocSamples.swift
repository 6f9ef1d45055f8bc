func allDocSamples() -> [(name: String, run: () throws -> Void)] { [] }
