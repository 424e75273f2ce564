//! Link settings of the wasm decoder: a 16 KiB stack instead of rustc's 1 MiB default (the decoder
//! needs a few hundred bytes; its memory then starts at 1 page plus what `ready()` grows it by).

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=16384");
    }
}
