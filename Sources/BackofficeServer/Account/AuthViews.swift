import BackofficeCore

struct SignInView: PageView {
  var email: String = ""
  var error: String? = nil
  var notice: String? = nil
  var next: String? = nil
  var signupOpen: Bool = true

  var title: String { L("nav.sign_in") }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("auth-card")],
      [
        H.h1(L("nav.sign_in")),
        notice.map { H.div([.class("flash flash-info"), .role("status")], [H.text($0)]) }
          ?? H.empty,
        error.map { H.div([.class("form-error"), .role("alert")], [H.text($0)]) }
          ?? H.empty,
        postForm(
          action: Routes.signInSubmit.href(query: ["next": next]), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "email", label: L("settings.email"), type: "email", value: email,
              required: true,
              autocomplete: "username"
            ).render(),
            FieldView(
              name: "password", label: L("settings.password.heading"), type: "password",
              required: true,
              autocomplete: "current-password"
            ).render(),
            H.button(L("nav.sign_in"), [.class("button button-primary")]),
          ]),
        H.p([], [H.a(Routes.forgotPassword.href(), text: L("auth.reset.link"))]),
        signupOpen
          ? H.p(
            [],
            [
              H.text(L("auth.new_here") + " "),
              H.a(Routes.signUp.href(), text: L("auth.create_an_account")),
            ])
          : H.empty,
      ])
  }
}

struct SignUpView: PageView {
  var email: String = ""
  var errors: [String: String] = [:]
  var signupOpen: Bool = true
  /// Where to go once the account exists (an invitation's link).
  var next: String? = nil

  var title: String { L("nav.create_account") }

  func content(context: PageContext) -> HTMLNode {
    guard signupOpen else {
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("nav.create_account")),
          H.p(
            [.class("notice")],
            L("auth.sign_up.closed")),
          H.a(Routes.signIn.href(), text: L("nav.sign_in")),
        ])
    }
    return H.div(
      [.class("auth-card")],
      [
        H.h1(L("nav.create_account")),
        postForm(
          action: Routes.signUpSubmit.href(query: ["next": next]), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "email", label: L("settings.email"), type: "email", value: email,
              error: errors["email"],
              required: true, autocomplete: "username"
            ).render(),
            FieldView(
              name: "password", label: L("settings.password.heading"), type: "password",
              error: errors["password"],
              hint: L("settings.password.hint", ["count": String(Passwords.minimumLength)]),
              required: true,
              autocomplete: "new-password",
              extra: [.minlength("\(Passwords.minimumLength)")]
            ).render(),
            H.button(L("nav.create_account"), [.class("button button-primary")]),
          ]),
        H.p(
          [],
          [
            H.text(L("auth.have_account") + " "),
            H.a(Routes.signIn.href(query: ["next": next]), text: L("nav.sign_in")),
          ]),
      ])
  }
}

/// "Forgot password?": the form, the answer after it (the same for every address), or, without
/// mail, who can help.
struct ForgotPasswordView: PageView {
  var mailOn: Bool
  var email: String = ""
  var error: String? = nil
  /// Set once a request was taken: the address it was for.
  var sentTo: String? = nil

  var title: String { L("auth.reset.title") }

  func content(context: PageContext) -> HTMLNode {
    guard mailOn else {
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.reset.title")),
          H.p([.class("notice")], L("auth.reset.no_mail")),
          H.pre(
            [.class("command")],
            [H.code([], [H.text("backoffice user reset-password --email you@example.org")])]),
          H.a(Routes.signIn.href(), text: L("nav.sign_in")),
        ])
    }
    if let sentTo {
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.reset.title")),
          H.div(
            [.class("flash flash-info"), .role("status")],
            [H.text(L("auth.reset.sent", ["email": sentTo]))]),
          H.p([], L("auth.reset.sent_hint")),
          H.a(Routes.signIn.href(), text: L("nav.sign_in")),
        ])
    }
    return H.div(
      [.class("auth-card")],
      [
        H.h1(L("auth.reset.title")),
        H.p([], L("auth.reset.intro")),
        postForm(
          action: Routes.forgotPasswordSubmit.href(), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "email", label: L("settings.email"), type: "email", value: email,
              error: error, required: true, autocomplete: "username"
            ).render(),
            H.button(L("auth.reset.send"), [.class("button button-primary")]),
          ]),
        H.p([], [H.a(Routes.signIn.href(), text: L("auth.reset.back"))]),
      ])
  }
}

/// The page a reset link opens: a new password twice, or why the link no longer works.
struct ResetPasswordView: PageView {
  var secret: String
  var usable: Bool = true
  var errors: [String: String] = [:]

  var title: String { L("auth.reset.new_title") }

  func content(context: PageContext) -> HTMLNode {
    guard usable else {
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.reset.new_title")),
          H.p([.class("notice"), .role("alert")], L("auth.reset.unusable")),
          H.a(Routes.forgotPassword.href(), text: L("auth.reset.ask_again")),
        ])
    }
    return H.div(
      [.class("auth-card")],
      [
        H.h1(L("auth.reset.new_title")),
        H.p([], L("auth.reset.new_intro")),
        postForm(
          action: Routes.resetPasswordSubmit.href(["token": secret]), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "password", label: L("settings.password.new"), type: "password",
              error: errors["password"],
              hint: L("settings.password.hint", ["count": String(Passwords.minimumLength)]),
              required: true, autocomplete: "new-password",
              extra: [.minlength("\(Passwords.minimumLength)")]
            ).render(),
            FieldView(
              name: "confirm", label: L("settings.password.confirm"), type: "password",
              error: errors["confirm"], required: true, autocomplete: "new-password"
            ).render(),
            H.button(L("auth.reset.save"), [.class("button button-primary")]),
          ]),
      ])
  }
}

/// After sign-up with mail on: the same page for every address.
struct SignUpSentView: PageView {
  var email: String

  var title: String { L("auth.sign_up.sent_title") }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("auth-card")],
      [
        H.h1(L("auth.sign_up.sent_title")),
        H.div(
          [.class("flash flash-info"), .role("status")],
          [H.text(L("auth.sign_up.sent", ["email": email]))]),
        H.p([], L("auth.sign_up.sent_hint")),
        H.a(Routes.signIn.href(), text: L("nav.sign_in")),
      ])
  }
}

/// The page the confirmation link opens: one button to finish (a mail scanner that opens the
/// link makes no account), or why the link no longer works.
struct ConfirmSignUpView: PageView {
  enum State { case ready, unusable, taken }
  var secret: String
  var state: State

  var title: String { L("auth.sign_up.confirm_title") }

  func content(context: PageContext) -> HTMLNode {
    switch state {
    case .ready:
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.sign_up.confirm_title")),
          H.p([], L("auth.sign_up.confirm_intro")),
          postForm(
            action: Routes.signUpConfirmSubmit.href(["token": secret]), csrf: context.csrf,
            attributes: [.class("stack")],
            [H.button(L("auth.sign_up.confirm_button"), [.class("button button-primary")])]),
        ])
    case .unusable:
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.sign_up.confirm_title")),
          H.p([.class("notice"), .role("alert")], L("auth.sign_up.confirm_unusable")),
          H.a(Routes.signUp.href(), text: L("nav.create_account")),
        ])
    case .taken:
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("auth.sign_up.confirm_title")),
          H.p([.class("notice"), .role("alert")], L("auth.sign_up.confirm_taken")),
          H.a(Routes.signIn.href(), text: L("nav.sign_in")),
        ])
    }
  }
}
