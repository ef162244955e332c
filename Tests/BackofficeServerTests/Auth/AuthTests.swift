import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Accounts: sign-up, sign-in, sign-out")
struct AuthTests {
  @Test func signedOutHomeRedirectsToSignIn() async throws {
    try await withApp { t in
      let response = try await t.client().get("/")
      #expect(response.status == .seeOther)
      #expect(response.location == "/sign-in")
    }
  }

  @Test func signUpSignsInAndShowsOverview() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.get("/sign-up")
      let response = try await client.post(
        "/sign-up", form: [("email", "Ana@Example.com "), ("password", "long enough 123")])
      #expect(response.status == .seeOther)
      #expect(response.location == "/")
      let home = try await client.get("/")
      #expect(home.status == .ok)
      #expect(home.body.contains("<h1>Overview</h1>"))
      #expect(home.body.contains("Welcome to Backoffice."))
      #expect(home.body.contains("ana@example.com"), "email is stored trimmed and lowercased")
      let stored = try await Accounts.all(on: t.db)
      #expect(stored.map(\.email) == ["ana@example.com"])
      #expect(stored.first?.passwordHash.hasPrefix("$2") == true, "password is bcrypt-hashed")
      #expect(try await client.get("/").body.contains("Welcome") == false, "a flash shows once")
    }
  }

  @Test func signUpTakesLocaleAndCurrencyFromAcceptLanguage() async throws {
    try await withApp { t in
      try await t.client().signUp(
        email: "olena@example.com", acceptLanguage: "uk-UA,uk;q=0.9,en;q=0.5")
      try await t.client().signUp(email: "jonas@example.com", acceptLanguage: "de")
      let users = try await Accounts.all(on: t.db)
      #expect(users.map(\.locale) == ["de-DE", "uk-UA"])
      #expect(users.map(\.currency) == ["EUR", "UAH"])
    }
  }

  @Test(arguments: [
    ("not-an-email", "long enough 123", "Enter an email address like name@example.com."),
    ("", "long enough 123", "Enter your email address."),
    ("a@example.com", "short", "Use at least 8 characters."),
  ])
  func signUpRefusesBadInput(email: String, password: String, message: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.get("/sign-up")
      let response = try await client.post(
        "/sign-up", form: [("email", email), ("password", password)])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(message))
      if !email.isEmpty {
        #expect(response.body.contains(#"value="\#(email)""#), "the typed email is kept")
      }
      #expect(try await Accounts.all(on: t.db).count == 0)
    }
  }

  @Test func signUpRefusesTakenEmail() async throws {
    try await withApp { t in
      try await t.client().signUp(email: "taken@example.com")
      let other = t.client()
      try await other.get("/sign-up")
      let response = try await other.post(
        "/sign-up", form: [("email", "TAKEN@example.com"), ("password", "another password")])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(AuthController.emailUnavailable))
      #expect(!response.body.contains("exists"), "the refusal does not confirm an account")
      #expect(try await Accounts.all(on: t.db).count == 1)
    }
  }

  @Test func closedSignUpRefusesNewAccounts() async throws {
    let closed: (inout AppConfig) -> Void = { $0.signupOpen = false }
    try await withApp(config: closed) { t in
      let client = t.client()
      let page = try await client.get("/sign-up")
      #expect(page.body.contains("Sign-up is closed"))
      let signIn = try await client.get("/sign-in")
      #expect(!signIn.body.contains(#"href="/sign-up""#), "no way to a closed door")
      let response = try await client.post(
        "/sign-up", form: [("email", "new@example.com"), ("password", "long enough 123")])
      #expect(response.status == .forbidden)
      #expect(try await Accounts.all(on: t.db).count == 0)
    }
  }

  @Test func signOutEndsTheSession() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let oldCookie = try #require(client.cookies["backoffice_session"])
      let out = try await client.post("/sign-out")
      #expect(out.status == .seeOther)
      #expect(out.location == "/sign-in?signed-out=1")
      let signInPage = try await client.get(out.location ?? "/")
      #expect(signInPage.body.contains("You have been signed out."))
      #expect(try await client.get("/").status == .seeOther)
      // The old cookie is dead on the server, not only forgotten by this client.
      let replay = try await t.client().get(
        "/", headers: ["Cookie": "backoffice_session=\(oldCookie)"])
      #expect(replay.status == .seeOther)
    }
  }

  @Test func signInWithRightAndWrongPassword() async throws {
    try await withApp { t in
      let email = try await t.client().signUp(email: "sam@example.com", password: "s3cret-pass")
      let client = t.client()
      let wrong = try await client.signIn(email: email, password: "wrong-pass")
      #expect(wrong.status == .unauthorized)
      #expect(wrong.body.contains("Email or password is incorrect."))
      #expect(wrong.body.contains(#"role="alert""#))
      #expect(try await client.get("/").status == .seeOther)

      let unknown = try await client.signIn(email: "nobody@example.com", password: "s3cret-pass")
      #expect(unknown.body.contains("Email or password is incorrect."))

      let right = try await client.signIn(email: "SAM@example.com", password: "s3cret-pass")
      #expect(right.status == .seeOther)
      #expect(right.location == "/")
      #expect(try await client.get("/").status == .ok)
    }
  }

  @Test func signInRotatesTheSessionID() async throws {
    try await withApp { t in
      let email = try await t.client().signUp()
      let client = t.client()
      #expect(try await client.signIn(email: email).status == .seeOther)
      let before = try #require(client.cookies["backoffice_session"])
      try await client.get("/")
      #expect(try await client.signIn(email: email).status == .seeOther)
      try await client.post("/sign-out")
      #expect(try await client.signIn(email: email).status == .seeOther)
      let after = try #require(client.cookies["backoffice_session"])
      #expect(before != after)
      let old = try await t.client().get("/", headers: ["Cookie": "backoffice_session=\(before)"])
      #expect(old.status == .seeOther, "a session from before is not signed in")
    }
  }

  @Test(arguments: [
    ("/settings", "/settings"),
    ("https://evil.example/", "/"),
    ("//evil.example/", "/"),
    ("/\\evil.example", "/"),
    ("/\t/evil.example", "/"),
    ("/ /evil.example", "/"),
    ("/\n/evil.example", "/"),
    ("/expenses?month=2026-11", "/expenses?month=2026-11"),
  ])
  func signInFollowsOnlyLocalNext(next: String, expected: String) async throws {
    try await withApp { t in
      let email = try await t.client().signUp()
      let client = t.client()
      try await client.get("/sign-in")
      let query = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
      let response = try await client.post(
        "/sign-in?next=\(query)",
        form: [("email", email), ("password", "correct horse battery")])
      #expect(response.location == expected)
    }
  }

  @Test func signedOutPageRedirectRemembersWhereYouWereGoing() async throws {
    try await withApp { t in
      let response = try await t.client().get("/settings")
      #expect(response.location == "/sign-in?next=/settings")
    }
  }
}

@Suite("Sign-in rate limit")
struct RateLimitTests {
  @Test func lockedAfterFiveFailuresPerAccountThenReleased() async throws {
    try await withApp { t in
      let email = try await t.client().signUp(email: "rl@example.com")
      let client = t.client()
      for _ in 0..<SignInLimits.perAccount {
        #expect(
          try await client.signIn(email: email, password: "nope-nope").status == .unauthorized)
      }
      let blocked = try await client.signIn(email: email)
      #expect(blocked.status == .tooManyRequests, "even the right password waits")
      #expect(blocked.body.contains("Too many sign-in attempts. Try again in 15 minutes."))
      #expect(blocked.headers.first(name: .retryAfter) == "900")

      t.clock.advance(by: SignInLimits.window + 1)
      #expect(try await client.signIn(email: email).status == .seeOther)
    }
  }

  @Test func limitedPerAddressAcrossAccounts() async throws {
    try await withApp { t in
      let victim = try await t.client().signUp(email: "victim@example.com")
      let client = t.client()
      for index in 0..<SignInLimits.perAddress {
        _ = try await client.signIn(email: "guess\(index)@example.com", password: "whatever1")
      }
      // Every test request comes from the same (unknown) address.
      #expect(try await client.signIn(email: victim).status == .tooManyRequests)
    }
  }

  /// 40 attempts at once, the right password among them: only the first five places in the
  /// window may check a password at all, so the right one is refused with the rest.
  @Test func theLimitHoldsForParallelAttempts() async throws {
    try await withApp { t in
      let email = try await t.client().signUp(email: "parallel@example.com")
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<40 {
          group.addTask {
            let client = t.client()
            let password = index == 39 ? "correct horse battery" : "wrong guess \(index)"
            return try await client.signIn(email: email, password: password).status
          }
        }
        var all: [HTTPStatus] = []
        for try await status in group { all.append(status) }
        return all
      }
      let checked = statuses.filter { $0 != .tooManyRequests }
      #expect(checked.count <= SignInLimits.perAccount, "\(statuses.map(\.code))")
      #expect(statuses.filter { $0 == .tooManyRequests }.count >= 40 - SignInLimits.perAccount)
    }
  }

  /// Two servers on one database, the attempts spread over both: the limit is counted in the
  /// database, so it holds for the pair as it does for one.
  @Test func theLimitHoldsAcrossTwoInstances() async throws {
    try await withTwoInstances { one, two in
      let email = try await one.client().signUp(email: "two-servers@example.com")
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<40 {
          group.addTask {
            let client = (index.isMultiple(of: 2) ? one : two).client()
            return try await client.signIn(email: email, password: "wrong guess \(index)").status
          }
        }
        var all: [HTTPStatus] = []
        for try await status in group { all.append(status) }
        return all
      }
      let checked = statuses.filter { $0 != .tooManyRequests }
      #expect(checked.count <= SignInLimits.perAccount, "\(statuses.map(\.code))")
      #expect(statuses.filter { $0 == .tooManyRequests }.count >= 40 - SignInLimits.perAccount)
      // The failures recorded so far count on both servers: topped up to five, alternately,
      // they lock the account on both, even for the right password.
      for index in checked.count..<SignInLimits.perAccount {
        let server = index.isMultiple(of: 2) ? two : one
        #expect(
          try await server.client().signIn(email: email, password: "nope-nope").status
            == .unauthorized)
      }
      #expect(try await one.client().signIn(email: email).status == .tooManyRequests)
      #expect(try await two.client().signIn(email: email).status == .tooManyRequests)
    }
  }

  @Test func signUpIsLimitedPerAddress() async throws {
    try await withApp { t in
      for index in 0..<AppConfig().signupsPerHour {
        try await t.client().signUp(email: "new\(index)@example.com")
      }
      let client = t.client()
      try await client.get("/sign-up")
      let refused = try await client.post(
        "/sign-up", form: [("email", "one-more@example.com"), ("password", "long enough 123")])
      #expect(refused.status == .tooManyRequests)
      #expect(refused.body.contains("Too many new accounts from your network."))
      #expect(try await Accounts.all(on: t.db).count == AppConfig().signupsPerHour)
      t.clock.advance(by: SignUpLimits.window + 1)
      try await t.client().signUp(email: "later@example.com")
    }
  }

  @Test func successClearsTheAccountCounter() async throws {
    try await withApp { t in
      let email = try await t.client().signUp(email: "ok@example.com")
      let client = t.client()
      for _ in 0..<(SignInLimits.perAccount - 1) {
        _ = try await client.signIn(email: email, password: "wrong-wrong")
      }
      #expect(try await client.signIn(email: email).status == .seeOther)
      try await client.post("/sign-out")
      for _ in 0..<(SignInLimits.perAccount - 1) {
        _ = try await client.signIn(email: email, password: "wrong-wrong")
      }
      #expect(try await client.signIn(email: email).status == .seeOther)
    }
  }
}
