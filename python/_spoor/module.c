/* SPDX-License-Identifier: MIT */
/* module.c: the `_spoor` extension: its functions, types and exceptions (docs/python.md). */
#include "spoorpy.h"

PyObject *spy_error, *spy_damage_warning;

static PyMethodDef functions[] = {
    {"events", (PyCFunction) (void (*)(void)) spy_events, METH_VARARGS | METH_KEYWORDS,
     "events(paths, names=None, begin=None, end=None, part=None, strict=False)"},
    {"columns", (PyCFunction) (void (*)(void)) spy_columns, METH_VARARGS | METH_KEYWORDS,
     "columns(paths, cls, columns, part=None, begin=None, end=None, strict=False)"},
    {"packets", (PyCFunction) (void (*)(void)) spy_packets, METH_VARARGS | METH_KEYWORDS,
     "packets(paths, strict=False) -> [(trace, stream, [(offset, bytes, begin, end)])]"},
    {NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, .m_name = "spoor._spoor",
                                    .m_doc =
                                        "spoor's reader for Python (the package spoor wraps it).",
                                    .m_size = -1, .m_methods = functions};

PyMODINIT_FUNC PyInit__spoor(void); /* what Python calls: its only export */
PyMODINIT_FUNC PyInit__spoor(void)
{
	PyObject *m = NULL;

	if (spy_columns_init() || PyType_Ready(&spy_events_type) || PyType_Ready(&spy_event_type) ||
	    PyType_Ready(&spy_db_type) || !(m = PyModule_Create(&module)))
		return NULL;
	spy_error = PyErr_NewExceptionWithDoc(
	    "spoor.Error", "A trace that cannot be read, or a bad request: the reader's message.",
	    NULL, NULL);
	spy_damage_warning = PyErr_NewExceptionWithDoc(
	    "spoor.DamageWarning",
	    "Damage met while reading (a stream ends there; the others go on).", PyExc_UserWarning,
	    NULL);
	if (!spy_error || !spy_damage_warning || PyModule_AddObjectRef(m, "Error", spy_error) ||
	    PyModule_AddObjectRef(m, "DamageWarning", spy_damage_warning) ||
	    PyModule_AddObjectRef(m, "Database", (PyObject *) &spy_db_type)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
