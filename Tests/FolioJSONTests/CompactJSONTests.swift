import FolioTestSupport
import Testing

@testable import FolioJSON

/// The compact form `.folio/cache` keeps documents in: every value comes back as it
/// went in, and text that is not UTF-8 is refused rather than repaired.
struct CompactJSONTests {
    @Test(arguments: 0..<10)
    func randomValuesSurviveEncodeThenDecode(seed: UInt64) {
        var random = RandomJSON(seed: seed)
        for _ in 0..<100 {
            let value = random.value()
            var bytes: [UInt8] = []
            CompactJSON.encode(value, into: &bytes)
            #expect(bytes.withUnsafeBytes { CompactJSON.decode($0) } == value, "seed \(seed)")
        }
    }

    @Test(arguments: 0..<10)
    func membersReadAloneEqualThoseOfTheDecodedObject(seed: UInt64) {
        var random = RandomJSON(seed: seed)
        var objects = 0
        for _ in 0..<200 {
            guard case .object(let object) = random.value() else { continue }
            objects += 1
            var bytes: [UInt8] = []
            CompactJSON.encode(.object(object), into: &bytes)
            let names = Array(object.keys.prefix(2)) + ["not a key"]
            let members = bytes.withUnsafeBytes { CompactJSON.members(names, of: $0) }
            #expect(members == names.map { object[$0] }, "seed \(seed)")
            // Names in another order than the object's are found too.
            let reordered = Array(names.reversed())
            let found = bytes.withUnsafeBytes { CompactJSON.members(reordered, of: $0) }
            #expect(found == reordered.map { object[$0] }, "seed \(seed), names reversed")
            for name in names {
                #expect(bytes.withUnsafeBytes { CompactJSON.member(name, of: $0) } == object[name], "seed \(seed)")
                if case .string(let text)? = object[name] {
                    #expect(bytes.withUnsafeBytes { CompactJSON.member(name, of: $0, isText: text) }, "seed \(seed)")
                    #expect(!bytes.withUnsafeBytes { CompactJSON.member(name, of: $0, isText: text + "x") })
                } else {
                    #expect(!bytes.withUnsafeBytes { CompactJSON.member(name, of: $0, isText: "") }, "seed \(seed)")
                }
            }
            #expect(bytes.dropLast().withUnsafeBytes { CompactJSON.members(names, of: $0) } == nil, "truncated")
        }
        #expect(objects > 0, "seed \(seed) made no object to read members of")
        var array: [UInt8] = []
        CompactJSON.encode(.array([.integer(1)]), into: &array)
        #expect(array.withUnsafeBytes { CompactJSON.members(["a"], of: $0) } == nil, "not an object")
    }

    @Test func asciiAndOtherTextDecodeAlike() {
        for text in ["state", "Água fresca", "Plank 🏋️", ""] {
            var bytes: [UInt8] = []
            CompactJSON.encode(.string(text), into: &bytes)
            #expect(bytes.withUnsafeBytes { CompactJSON.decode($0) } == .string(text))
        }
    }

    @Test func textThatIsNotUTF8IsRefused() {
        var bytes: [UInt8] = []
        CompactJSON.encode(.string("abc"), into: &bytes)
        // The last three bytes are the text; make the middle one a lone continuation byte.
        bytes[bytes.count - 2] = 0x80
        #expect(bytes.withUnsafeBytes { CompactJSON.decode($0) } == nil)
    }
}
