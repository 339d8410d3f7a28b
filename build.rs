//! Links the `sslab` binary position-dependent (`-no-pie`) on Linux. A position-independent
//! binary of this size carries ~66,000 pointer relocations that the loader applies at every
//! start, making ~3.8 MiB of the binary resident in every `sslab` process (measured on
//! `sslab run` of the SVMlin bench: 80.3 → 78.1 MB peak); a fixed load address needs none.
//! Only the `sslab` binary is affected, not the library, tests, examples or Python module.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
