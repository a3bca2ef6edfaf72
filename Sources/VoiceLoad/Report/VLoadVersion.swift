/// The version vload reports about itself.
package enum VLoadVersion {
    package static let current = "0.1.0"
}
