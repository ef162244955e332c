import Plot

struct SignInView: PageView {
  var email: String = ""
  var error: String? = nil
  var notice: String? = nil
  var next: String? = nil
  var signupOpen: Bool = true

  var title: String { "Sign in" }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("auth-card")],
      [
        H.h1("Sign in"),
        notice.map { H.div([.class("flash flash-info"), .role("status")], [H.text($0)]) }
          ?? H.empty,
        error.map { H.div([.class("form-error"), .role("alert")], [H.text($0)]) }
          ?? H.empty,
        postForm(
          action: Routes.signInSubmit.href(query: ["next": next]), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "email", label: "Email", type: "email", value: email, required: true,
              autocomplete: "username"
            ).render(),
            FieldView(
              name: "password", label: "Password", type: "password", required: true,
              autocomplete: "current-password"
            ).render(),
            H.button("Sign in", [.class("button button-primary")]),
          ]),
        signupOpen
          ? H.p(
            [],
            [H.text("New here? "), H.a(Routes.signUp.href(), text: "Create an account")])
          : H.empty,
      ])
  }
}

struct SignUpView: PageView {
  var email: String = ""
  var errors: [String: String] = [:]
  var signupOpen: Bool = true

  var title: String { "Create account" }

  func content(context: PageContext) -> HTMLNode {
    guard signupOpen else {
      return H.div(
        [.class("auth-card")],
        [
          H.h1("Create account"),
          H.p(
            [.class("notice")],
            "Sign-up is closed on this server. Ask the administrator for an account."),
          H.a(Routes.signIn.href(), text: "Sign in"),
        ])
    }
    return H.div(
      [.class("auth-card")],
      [
        H.h1("Create account"),
        postForm(
          action: Routes.signUpSubmit.href(), csrf: context.csrf, attributes: [.class("stack")],
          [
            FieldView(
              name: "email", label: "Email", type: "email", value: email, error: errors["email"],
              required: true, autocomplete: "username"
            ).render(),
            FieldView(
              name: "password", label: "Password", type: "password", error: errors["password"],
              hint: "At least \(Passwords.minimumLength) characters.", required: true,
              autocomplete: "new-password",
              extra: [.minlength("\(Passwords.minimumLength)")]
            ).render(),
            H.button("Create account", [.class("button button-primary")]),
          ]),
        H.p(
          [],
          [H.text("Already have an account? "), H.a(Routes.signIn.href(), text: "Sign in")]),
      ])
  }
}
