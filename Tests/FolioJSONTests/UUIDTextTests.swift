import FolioJSON
import Foundation
import Testing

/// Folio's own UUID text reading and writing agrees with Foundation's.
struct UUIDTextTests {
    @Test func textAndParsingAgreeWithFoundation() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUIDText.text(of: uuid) == uuid.uuidString)
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
    }

    @Test func malformedTextIsNoUUID() {
        let valid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(UUIDText.parse(valid) != nil)
        for text in [
            "", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",
            "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F",
            "É621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        ] {
            #expect(UUIDText.parse(text) == nil, "\(text)")
        }
    }
}
