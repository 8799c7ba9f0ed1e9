//! The built-in catalogue is compiled into the binary (`include_dir!`), which cannot tell cargo
//! about the files it reads on a stable compiler: rebuild whenever a scenario file changes.

fn main() {
    println!("cargo:rerun-if-changed=scenarios");
}
