// Self-signed test certificate for CN/SAN "localhost" and IP 127.0.0.1, valid until 2126.
// Generated once with:
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 \
//     -keyout test-key.pem -out test-cert.pem -subj "/CN=localhost" \
//     -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -addext "extendedKeyUsage=serverAuth" \
//     -addext "keyUsage=critical,digitalSignature,keyCertSign"
// For tests only: the private key is public.
enum SMTPTestCertificates {
  static let certificatePEM = """
    -----BEGIN CERTIFICATE-----
    MIIBwjCCAWigAwIBAgIUFh1bV+9r8/YfXjEuOq4KgWi+ZjAwCgYIKoZIzj0EAwIw
    FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzA2MzYzMFoYDzIxMjYxMTAz
    MDYzNjMwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
    PQMBBwNCAATr1yH10eqhg2U8EAr+15bJ/VVZpC2tKCvNqnFmCFbhfdmNnUIjTSs8
    rKnhJmX9RCv9LlsUvqnB0CUGYBhvn1U1o4GVMIGSMB0GA1UdDgQWBBQMQDR+sEkr
    DUejuo4/ru0lr7jtTjAfBgNVHSMEGDAWgBQMQDR+sEkrDUejuo4/ru0lr7jtTjAP
    BgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGCCWxvY2FsaG9zdIcEfwAAATATBgNV
    HSUEDDAKBggrBgEFBQcDATAOBgNVHQ8BAf8EBAMCAoQwCgYIKoZIzj0EAwIDSAAw
    RQIhANevKrttBe09glUZVh/vzVbabEo3TGxsF0HkEPO6Kl8yAiBhrfwAf0++IUa6
    S6A4EUKC3hPV/b94kAKBw6TO57VRcQ==
    -----END CERTIFICATE-----
    """

  static let privateKeyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglUdy22k3Vfg7tXMO
    EhKtfI/wgbUrEvm6UYYINDzdNaShRANCAATr1yH10eqhg2U8EAr+15bJ/VVZpC2t
    KCvNqnFmCFbhfdmNnUIjTSs8rKnhJmX9RCv9LlsUvqnB0CUGYBhvn1U1
    -----END PRIVATE KEY-----
    """
}
