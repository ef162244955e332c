import Foundation
import Testing

@testable import BackofficeCore

/// A refresh that fails in the background stores a code; each reader sees it in their own
/// language, and words stored by earlier versions are shown as they are.
@Suite("Jar errors in the reader's language")
struct JarErrorLanguageTests {
  @Test(arguments: [
    JarFetchError.timeout, .http(503), .network(JarFetchDetail.connectionRefused.rawValue),
    .malformed(JarFetchDetail.noJarAmount.rawValue), .service(code: "1", text: ""),
  ])
  func storedOnceReadInEither(error: JarFetchError) {
    let stored = error.storedForm
    #expect(JarFetchError(storedForm: stored) == error)
    let english = UILanguage.$current.withValue(.en) { JarFetchError.describe(stored: stored) }
    let ukrainian = UILanguage.$current.withValue(.uk) { JarFetchError.describe(stored: stored) }
    #expect(english == UILanguage.$current.withValue(.en) { error.reason })
    #expect(ukrainian == UILanguage.$current.withValue(.uk) { error.reason })
    #expect(english != ukrainian)
    #expect(!english.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) })
  }

  @Test func wordsFromBeforeAreShownAsTheyAre() {
    #expect(JarFetchError.describe(stored: "немає відповіді вчасно") == "немає відповіді вчасно")
  }
}

/// A stopped import keeps a code; each reader sees it in their language.
@Suite("Import stop reasons in the reader's language")
struct ImportStopReasonTests {
  @Test(arguments: [ImportMessages.StopReason.serverStopped, .writeFailed])
  func storedOnceReadInEither(reason: ImportMessages.StopReason) {
    let english = UILanguage.$current.withValue(.en) {
      ImportMessages.localized(stored: reason.rawValue)
    }
    let ukrainian = UILanguage.$current.withValue(.uk) {
      ImportMessages.localized(stored: reason.rawValue)
    }
    #expect(english == UILanguage.$current.withValue(.en) { reason.message })
    #expect(ukrainian == UILanguage.$current.withValue(.uk) { reason.message })
    #expect(english != ukrainian && english != reason.rawValue)
    #expect(ImportMessages.localized(stored: "Some older words.") == "Some older words.")
  }
}
