import Foundation
import Testing

@testable import BackofficeServer

/// Ids read and written without Foundation's parser agree with Foundation on every id, and
/// text that is not an id is refused.
@Suite("Ids as text")
struct UUIDTextTests {
  @Test func agreesWithFoundation() {
    for _ in 0..<2_000 {
      let id = UUID()
      #expect(UUIDText.parse(id.uuidString) == id)
      #expect(UUIDText.parse(id.uuidString.lowercased()) == id)
      var out: [UInt8] = []
      UUIDText.writeLowercased(id, into: &out)
      #expect(String(decoding: out, as: UTF8.self) == id.uuidString.lowercased())
    }
  }

  @Test(arguments: [
    "", "not an id", "00000000-0000-0000-0000-00000000000", "00000000-0000-0000-0000-0000000000000",
    "00000000_0000-0000-0000-000000000000", "0000000g-0000-0000-0000-000000000000",
    "00000000-0000-0000-0000-00000000000é", "{00000000-0000-0000-0000-000000000}",
  ])
  func refusesWhatIsNotAnId(text: String) {
    #expect(UUIDText.parse(text) == nil)
    #expect(UUID(uuidString: text) == nil)
  }
}
