import BackofficeCore
import Fluent
import Foundation
import Vapor

/// `backoffice user create --email …`: makes an account without the sign-up page, e.g. when
/// sign-up is closed. The password comes from standard input or a hidden prompt, never from
/// an argument (arguments end up in shell history and process lists).
struct UserCommand: AsyncCommandGroup {
  var commands: [String: any AnyAsyncCommand] {
    ["create": UserCreateCommand(), "reset-password": UserResetPasswordCommand()]
  }
  var help: String { "Manage accounts." }
}

struct UserCreateCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "email", help: "Email address of the new account.")
    var email: String?

    @Option(name: "locale", help: "Locale such as en-US, uk-UA or de-DE (default en-US).")
    var locale: String?

    @Option(name: "currency", help: "ISO 4217 currency code (default: the locale's).")
    var currency: String?

    @Flag(
      name: "admin",
      help: "Make the account an administrator (the first account on a server always is one).")
    var admin: Bool

    init() {}
  }

  var help: String {
    "Create an account. The password is read from standard input (or asked for on a terminal)."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    let email = EmailAddress.normalize(signature.email ?? "")
    if let problem = EmailAddress.problem(with: email) {
      throw StartupError("--email: \(problem)")
    }
    let locale: BackofficeLocale
    if let raw = signature.locale {
      guard let found = BackofficeLocale(identifier: raw) else {
        throw StartupError(
          "--locale: use one of "
            + BackofficeLocale.supported.map(\.identifier).joined(separator: ", ") + ".")
      }
      locale = found
    } else {
      locale = .resolve("en-US")
    }
    let currency = (signature.currency ?? locale.defaultCurrency).uppercased()
    guard Currency.isValid(currency) else {
      throw StartupError("--currency: \(currency) is not an ISO 4217 code.")
    }

    let password = try UserPasswordInput.read(for: email, context: context)
    if try await Accounts.find(email: email, on: app.db) != nil {
      throw StartupError("An account with the email \(email) already exists.")
    }
    let user = try await Accounts.create(
      User(
        email: email, passwordHash: try await app.password.async.hash(password),
        locale: locale.identifier, currency: currency),
      admin: signature.admin, on: app.db)
    context.console.print(
      "Created account \(email) (\(locale.identifier), \(currency))"
        + (user.isAdmin ? ", administrator." : "."))
  }
}

/// `backoffice user reset-password --email …`: sets a new password for someone locked out
/// (the way when the server sends no mail), and ends every session and API token of the
/// account, as a reset link does.
struct UserResetPasswordCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "email", help: "Email address of the account.")
    var email: String?

    init() {}
  }

  var help: String {
    "Set a new password for an account and sign out all its devices and API tokens. The "
      + "password is read from standard input (or asked for on a terminal)."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    let email = EmailAddress.normalize(signature.email ?? "")
    if let problem = EmailAddress.problem(with: email) {
      throw StartupError("--email: \(problem)")
    }
    guard let user = try await Accounts.find(email: email, on: app.db) else {
      throw StartupError("No account has the email \(email).")
    }
    let password = try UserPasswordInput.read(for: email, context: context)
    let hash = try await app.password.async.hash(password)
    try await PasswordResets.setPassword(user, hash: hash, on: app.db)
    context.console.print(
      "New password set for \(email); every device and API token of the account was signed out.")
  }
}

/// A new password from a hidden prompt (twice) on a terminal, or one line of standard input.
enum UserPasswordInput {
  static func read(for email: String, context: CommandContext) throws -> String {
    let password: String
    if isatty(STDIN_FILENO) != 0 {
      let first = context.console.ask("Password for \(email):", isSecure: true)
      let second = context.console.ask("Repeat the password:", isSecure: true)
      guard first == second else { throw StartupError("The passwords do not match.") }
      password = first
    } else {
      password = readLine(strippingNewline: true) ?? ""
    }
    if let problem = Passwords.problem(with: password) {
      throw StartupError("Password: \(problem)")
    }
    return password
  }
}
