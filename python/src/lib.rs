//! `zarr_scale_offset._core`: the PyO3 module of the zarr-python engine. It only converts: numpy
//! uint8 buffers in the core's in-memory layout to byte slices and back, JSON text to the Rust
//! API's arguments, and [`zarr_scale_offset::Error`] to the Python exception of its code
//! (`zarr_scale_offset.errors`). Every codec rule lives in the root crate; the Python side
//! (`zarr_scale_offset/`) turns numpy arrays of any data type into these buffers.
//!
//! ```text
//! >>> from zarr_scale_offset import _core
//! >>> b = _core.Bound('{"name": "cast_value", "configuration": {"data_type": "uint8"}}',
//! ...                 "float32", "0")
//! >>> b.encoded_data_type, b.encoded_fill, b.encoded_fill_bytes
//! ('uint8', '0', b'\x00')
//! >>> _core.Bound.from_fill_element("[]", "int4", b"\xff").encoded_fill
//! '-1'
//! ```
#![warn(missing_docs)]

use numpy::{BorrowError, PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyAny;
use zarr_scale_offset::{DataType, Error};

/// `zarr_scale_offset.errors._from_core`, looked up once.
static FROM_CORE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The Python exception for a core error: `zarr_scale_offset.errors._from_core(code, message,
/// path)` builds the instance of the class for `code` (a `ValueError` subclass with `.code`), so
/// the class hierarchy is defined once, in Python.
fn py_error(py: Python<'_>, e: Error) -> PyErr {
    let make = || -> PyResult<PyErr> {
        let f = FROM_CORE.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py
                .import("zarr_scale_offset.errors")?
                .getattr("_from_core")?
                .unbind())
        })?;
        let exc = f
            .bind(py)
            .call1((e.code.as_str(), e.message.as_str(), e.path.as_deref()))?;
        Ok(PyErr::from_value(exc))
    };
    make().unwrap_or_else(|import_failure| import_failure)
}

/// An `invalid_data` error (the code JS gives a buffer of the wrong kind).
fn invalid_data(py: Python<'_>, message: String) -> PyErr {
    py_error(
        py,
        Error::new(zarr_scale_offset::ErrorCode::InvalidData, message),
    )
}

/// What `a` is, for a message: `numpy.ndarray of int8`, `list`.
fn describe(a: &Bound<'_, PyAny>) -> String {
    let ty = a
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into());
    match a.getattr("dtype") {
        Ok(d) => format!("{ty} of {d}"),
        Err(_) => ty,
    }
}

/// `a` as a uint8 numpy array (`what` names it: "the input", "out"), or an `invalid_data`
/// error naming what it is.
fn u8_array<'a, 'py>(
    py: Python<'py>,
    a: &'a Bound<'py, PyAny>,
    what: &str,
) -> PyResult<&'a Bound<'py, PyArrayDyn<u8>>> {
    a.cast::<PyArrayDyn<u8>>().map_err(|_| {
        invalid_data(
            py,
            format!(
                "{what} must be a C-contiguous uint8 numpy array (the core's bytes), found {}",
                describe(a)
            ),
        )
    })
}

/// `a` as a uint8 numpy array borrowed for reading, or an `invalid_data` error.
fn readonly<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArrayDyn<'py, u8>> {
    u8_array(py, a, what)?
        .try_readonly()
        .map_err(|e| invalid_data(py, format!("{what} cannot be read: {e}")))
}

/// The bytes of a C-contiguous uint8 array (the Python side makes every input so).
fn input<'a>(py: Python<'_>, a: &'a PyReadonlyArrayDyn<'_, u8>) -> PyResult<&'a [u8]> {
    a.as_slice().map_err(|_| {
        invalid_data(
            py,
            "the input buffer is not a C-contiguous uint8 array".to_string(),
        )
    })
}

/// Codecs bound to (data type, fill value) once: the Rust [`zarr_scale_offset::Bound`], shared by
/// every thread (frozen: no Python-side mutation; the core is `Send + Sync`). Buffers are
/// C-contiguous uint8 arrays in the core's in-memory layout; every encode/decode releases the GIL.
#[pyclass(frozen, name = "Bound", module = "zarr_scale_offset._core")]
struct PyBound {
    inner: zarr_scale_offset::Bound,
}

impl PyBound {
    /// Output length in bytes for `n` input bytes of `from` elements converted to `to` elements.
    /// A length that is not a whole number of elements is left for the core to report.
    fn out_len(n: usize, from: DataType, to: DataType) -> usize {
        n / from.size().max(1) * to.size()
    }

    fn run<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        encode: bool,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let (from, to) = self.types(encode);
        let data = readonly(py, data, "the input")?;
        let src = input(py, &data)?;
        let out = PyArray1::<u8>::zeros(py, Self::out_len(src.len(), from, to), false);
        {
            let mut rw = out.readwrite();
            let dst = rw.as_slice_mut()?;
            py.detach(|| self.apply(encode, src, dst))
                .map_err(|e| py_error(py, e))?;
        }
        Ok(out)
    }

    /// `data` through the codecs into `out`. `out` may overlap `data` (as in JavaScript, where
    /// both are copied into the module's memory): the input is then copied first.
    fn run_into(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
        encode: bool,
    ) -> PyResult<()> {
        let out = u8_array(py, out, "out")?;
        let not_contiguous = || {
            invalid_data(
                py,
                "out is not a C-contiguous writeable uint8 array".to_string(),
            )
        };
        let ro = readonly(py, data, "the input")?;
        match out.try_readwrite() {
            Ok(mut rw) => {
                let src = input(py, &ro)?;
                let dst = rw.as_slice_mut().map_err(|_| not_contiguous())?;
                py.detach(|| self.apply(encode, src, dst))
                    .map_err(|e| py_error(py, e))
            }
            Err(BorrowError::NotWriteable) => Err(invalid_data(py, "out is read-only".into())),
            // `out` shares memory with the input (or is borrowed elsewhere): the input is
            // copied, then `out` borrowed again and written.
            Err(_) => {
                let copy = input(py, &ro)?.to_vec();
                drop(ro);
                let mut rw = out
                    .try_readwrite()
                    .map_err(|e| invalid_data(py, format!("out cannot be written: {e}")))?;
                let dst = rw.as_slice_mut().map_err(|_| not_contiguous())?;
                py.detach(|| self.apply(encode, &copy, dst))
                    .map_err(|e| py_error(py, e))
            }
        }
    }

    fn types(&self, encode: bool) -> (DataType, DataType) {
        let (d, e) = (
            self.inner.decoded_data_type(),
            self.inner.encoded_data_type(),
        );
        if encode {
            (d, e)
        } else {
            (e, d)
        }
    }

    fn apply(&self, encode: bool, src: &[u8], dst: &mut [u8]) -> zarr_scale_offset::Result<()> {
        if encode {
            self.inner.encode_into(src, dst)
        } else {
            self.inner.decode_into(src, dst)
        }
    }
}

#[pymethods]
impl PyBound {
    /// Binds `codecs` (JSON text of one array->array codec or a list) to `data_type` (a name)
    /// and `fill` (JSON text of a Zarr fill value, or None).
    #[new]
    #[pyo3(signature = (codecs, data_type, fill=None))]
    fn new(py: Python<'_>, codecs: &str, data_type: &str, fill: Option<&str>) -> PyResult<Self> {
        zarr_scale_offset::bind(codecs, data_type, fill)
            .map(|inner| PyBound { inner })
            .map_err(|e| py_error(py, e))
    }

    /// The data type the codecs receive (what `decode` produces).
    #[getter]
    fn decoded_data_type(&self) -> &'static str {
        self.inner.decoded_data_type().name()
    }

    /// The data type after the last codec (what `encode` produces).
    #[getter]
    fn encoded_data_type(&self) -> &'static str {
        self.inner.encoded_data_type().name()
    }

    /// Like `Bound(codecs, data_type, fill)`, with the fill value as one in-memory element of
    /// `data_type` (`bytes` in the core's layout, the form `encoded_fill_bytes` returns) instead
    /// of JSON text: `zarr_scale_offset::Bound::from_fill_element`. With no codecs (`"[]"`) its
    /// `encoded_fill` is the strict JSON text of that element.
    #[staticmethod]
    #[pyo3(signature = (codecs, data_type, fill=None))]
    fn from_fill_element(
        py: Python<'_>,
        codecs: &str,
        data_type: &str,
        fill: Option<&[u8]>,
    ) -> PyResult<Self> {
        data_type
            .parse::<DataType>()
            .and_then(|t| zarr_scale_offset::Bound::from_fill_element(codecs, t, fill))
            .map(|inner| PyBound { inner })
            .map_err(|e| py_error(py, e))
    }

    /// The fill value after the last codec as JSON text, or None.
    #[getter]
    fn encoded_fill(&self) -> Option<String> {
        self.inner.encoded_fill()
    }

    /// The fill value after the last codec as one in-memory element of the encoded data type
    /// (`bytes` in the core's layout), or None.
    #[getter]
    fn encoded_fill_bytes(&self) -> Option<Vec<u8>> {
        self.inner.encoded_fill_element()
    }

    /// Encodes a buffer of the decoded data type into a new buffer of the encoded one.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        self.run(py, data, true)
    }

    /// Decodes a buffer of the encoded data type into a new buffer of the decoded one.
    fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        self.run(py, data, false)
    }

    /// Encodes into `out` (exactly as many encoded elements as `data` holds decoded ones).
    fn encode_into(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.run_into(py, data, out, true)
    }

    /// Decodes into `out` (exactly as many decoded elements as `data` holds encoded ones).
    fn decode_into(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        out: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.run_into(py, data, out, false)
    }

    fn __repr__(&self) -> String {
        format!(
            "Bound({} -> {}, encoded fill {})",
            self.decoded_data_type(),
            self.encoded_data_type(),
            self.encoded_fill().as_deref().unwrap_or("none")
        )
    }
}

/// `zarr_scale_offset::from_cf`: the `{data_type, fill_value, codecs}` JSON text reproducing
/// `xarray.decode_cf` for `attrs` (JSON text) packed as `packed_data_type`.
#[pyfunction]
#[pyo3(signature = (attrs, packed_data_type, attribute_data_type=None))]
fn from_cf(
    py: Python<'_>,
    attrs: &str,
    packed_data_type: &str,
    attribute_data_type: Option<&str>,
) -> PyResult<String> {
    zarr_scale_offset::from_cf(attrs, packed_data_type, attribute_data_type)
        .map_err(|e| py_error(py, e))
}

/// `zarr_scale_offset::from_fixed_scale_offset`: the `[scale_offset, cast_value]` JSON text
/// that supersedes a `numcodecs.fixedscaleoffset` configuration.
#[pyfunction]
#[pyo3(signature = (config, array_data_type=None))]
fn from_fixed_scale_offset(
    py: Python<'_>,
    config: &str,
    array_data_type: Option<&str>,
) -> PyResult<String> {
    zarr_scale_offset::from_fixed_scale_offset(config, array_data_type).map_err(|e| py_error(py, e))
}

/// `zarr_scale_offset::decode_chunk`: one stored chunk of a zarr.json (or `.zarray`) document
/// to its in-memory bytes. The GIL is released while decoding.
#[pyfunction]
fn decode_chunk(py: Python<'_>, metadata: &str, encoded: &[u8]) -> PyResult<Vec<u8>> {
    py.detach(|| zarr_scale_offset::decode_chunk(metadata, encoded))
        .map_err(|e| py_error(py, e))
}

/// `zarr_scale_offset::encode_chunk`: one chunk's in-memory bytes to the stored bytes.
#[pyfunction]
fn encode_chunk(py: Python<'_>, metadata: &str, decoded: &[u8]) -> PyResult<Vec<u8>> {
    py.detach(|| zarr_scale_offset::encode_chunk(metadata, decoded))
        .map_err(|e| py_error(py, e))
}

/// `zarr_scale_offset::validate`: `(errors, warnings, unsupported)`, each a list of
/// `(path, code, message)`.
#[pyfunction]
#[pyo3(signature = (metadata, data_type=None))]
#[allow(clippy::type_complexity)]
fn validate(
    metadata: &str,
    data_type: Option<&str>,
) -> (
    Vec<(String, String, String)>,
    Vec<(String, String, String)>,
    Vec<(String, String, String)>,
) {
    let r = zarr_scale_offset::validate(metadata, data_type);
    let rows = |v: &[zarr_scale_offset::Diag]| {
        v.iter()
            .map(|d| (d.path.clone(), d.code.to_string(), d.message.clone()))
            .collect()
    };
    (rows(&r.errors), rows(&r.warnings), rows(&r.unsupported))
}

/// The names of the 26 data types, in the core's order.
#[pyfunction]
fn data_types() -> Vec<&'static str> {
    DataType::ALL.iter().map(|t| t.name()).collect()
}

/// The module `zarr_scale_offset._core`.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBound>()?;
    m.add_function(wrap_pyfunction!(from_cf, m)?)?;
    m.add_function(wrap_pyfunction!(from_fixed_scale_offset, m)?)?;
    m.add_function(wrap_pyfunction!(decode_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(encode_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(data_types, m)?)?;
    Ok(())
}
