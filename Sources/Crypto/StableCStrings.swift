/// C strings that stay valid until ``free()``, for libcrypto APIs that keep the pointers they are given
/// (`OSSL_PARAM_BLD` keeps parameter names and values until `to_param`, the resulting array keeps the names,
/// `EVP_PKEY_CTX_new_from_name` keeps the key-type name). Swift's implicit String-to-pointer bridging only lasts
/// for one call.
struct StableCStrings {
    private let pointers: [UnsafeMutablePointer<CChar>]

    init(_ strings: String...) {
        pointers = strings.map { string in
            let bytes = Array(string.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            return pointer
        }
    }

    subscript(index: Int) -> UnsafeMutablePointer<CChar> { pointers[index] }

    func free() {
        for pointer in pointers { pointer.deallocate() }
    }
}
