import Fluent
import Testing

@testable import BackofficeCore
@testable import BackofficeServer

/// Runs a test, or every test of a suite, with the interface in Ukrainian: texts the test
/// makes itself, and every account its clients sign up (their locale stays as the browser's).
struct UkrainianInterface: TestTrait, SuiteTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await UILanguage.$current.withValue(.uk) {
      try await TestLanguage.$interface.withValue(.uk) { try await function() }
    }
  }
}

extension Trait where Self == UkrainianInterface {
  static var ukrainian: Self { Self() }
}

enum TestLanguage {
  /// The interface language accounts signed up by `TestClient` get, when set.
  @TaskLocal static var interface: UILanguage? = nil
}

extension TestClient {
  /// Gives the account `email` the interface language of the running test, if it sets one.
  func applyTestLanguage(email: String) async throws {
    guard let language = TestLanguage.interface else { return }
    try await useLanguage(language, email: email)
  }

  /// Switches the account `email` to `language`, keeping its locale.
  func useLanguage(_ language: UILanguage, email: String) async throws {
    guard var user = try await Accounts.find(email: email, on: app.db) else { return }
    user.uiLanguage = language.rawValue
    try await Accounts.save(user, on: app.db)
  }
}
