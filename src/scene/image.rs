//! Images a model file carries inside itself (glTF's embedded textures), kept as the encoded bytes: decoding is
//! the texture loader's job (`textures::TextureSet::load`), as for a texture file on disk.

/// An encoded image (PNG, JPEG, …) stored in the model file. A material refers to it by `name` with
/// [`super::TextureSearch::Embedded`].
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddedImage {
    /// Unique among the scene's images.
    pub name: String,
    /// The media type the file declares (`image/png`), if any; decoding guesses from the bytes.
    pub mime_type: Option<String>,
    pub bytes: Vec<u8>,
}

impl EmbeddedImage {
    /// The image named `name` among `images`.
    pub fn find<'a>(images: &'a [EmbeddedImage], name: &str) -> Option<&'a EmbeddedImage> {
        images.iter().find(|i| i.name == name)
    }
}
