/*
 * lazy_xml2.c — the libxml2 functions pouch and its tests call, loading
 * libxml2 on the first call (lazylib.h). Each definition repeats the
 * prototype of libxml2's header, which the compiler holds it to.
 */
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "lazylib.h"

#ifndef POUCH_XML2_SONAME
#error "POUCH_XML2_SONAME (libxml2's soname) is set by the Makefile"
#endif

struct lazylib lazy_xml2 = {
	POUCH_XML2_SONAME, "to read variant files, draw maps and read HTML mail", NULL
};

#define LAZY(ret, name, params, args) LAZYLIB_FN(lazy_xml2, ret, name, params, args)
#define LAZY_VOID(name, params, args) LAZYLIB_VOID(lazy_xml2, name, params, args)

LAZY(htmlDocPtr, htmlReadMemory, (const char *buffer, int size, const char *URL,
    const char *encoding, int options), (buffer, size, URL, encoding, options))
LAZY(xmlNodePtr, xmlAddChild, (xmlNodePtr parent, xmlNodePtr cur), (parent, cur))
LAZY(xmlErrorPtr, xmlCtxtGetLastError, (void *ctx), (ctx))
LAZY(xmlDocPtr, xmlCtxtReadMemory, (xmlParserCtxtPtr ctxt, const char *buffer, int size,
    const char *URL, const char *encoding, int options),
    (ctxt, buffer, size, URL, encoding, options))
LAZY(xmlNodePtr, xmlDocCopyNode, (xmlNodePtr node, xmlDocPtr doc, int recursive),
    (node, doc, recursive))
LAZY(xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *doc), (doc))
LAZY_VOID(xmlInitParser, (void), ())
LAZY(xmlNodePtr, xmlDocSetRootElement, (xmlDocPtr doc, xmlNodePtr root), (doc, root))
LAZY_VOID(xmlFreeDoc, (xmlDocPtr cur), (cur))
LAZY_VOID(xmlFreeParserCtxt, (xmlParserCtxtPtr ctxt), (ctxt))
LAZY(long, xmlGetLineNo, (const xmlNode *node), (node))
LAZY(xmlChar *, xmlGetNoNsProp, (const xmlNode *node, const xmlChar *name), (node, name))
LAZY(xmlChar *, xmlGetProp, (const xmlNode *node, const xmlChar *name), (node, name))
LAZY(xmlNodePtr, xmlNewChild, (xmlNodePtr parent, xmlNsPtr ns, const xmlChar *name,
    const xmlChar *content), (parent, ns, name, content))
LAZY(xmlDocPtr, xmlNewDoc, (const xmlChar *version), (version))
LAZY(xmlNodePtr, xmlNewNode, (xmlNsPtr ns, const xmlChar *name), (ns, name))
LAZY(xmlNsPtr, xmlNewNs, (xmlNodePtr node, const xmlChar *href, const xmlChar *prefix),
    (node, href, prefix))
LAZY(xmlParserCtxtPtr, xmlNewParserCtxt, (void), ())
LAZY(xmlAttrPtr, xmlNewProp, (xmlNodePtr node, const xmlChar *name, const xmlChar *value),
    (node, name, value))
LAZY(xmlNodePtr, xmlNewTextChild, (xmlNodePtr parent, xmlNsPtr ns, const xmlChar *name,
    const xmlChar *content), (parent, ns, name, content))
LAZY(xmlChar *, xmlNodeGetContent, (const xmlNode *cur), (cur))
LAZY(xmlChar *, xmlNodeListGetString, (xmlDocPtr doc, const xmlNode *list, int inLine),
    (doc, list, inLine))
LAZY(xmlDocPtr, xmlReadMemory, (const char *buffer, int size, const char *URL,
    const char *encoding, int options), (buffer, size, URL, encoding, options))
LAZY(int, xmlReconciliateNs, (xmlDocPtr doc, xmlNodePtr tree), (doc, tree))
LAZY(int, xmlSaveClose, (xmlSaveCtxtPtr ctxt), (ctxt))
LAZY(long, xmlSaveDoc, (xmlSaveCtxtPtr ctxt, xmlDocPtr doc), (ctxt, doc))
LAZY(xmlSaveCtxtPtr, xmlSaveToIO, (xmlOutputWriteCallback iowrite,
    xmlOutputCloseCallback ioclose, void *ioctx, const char *encoding, int options),
    (iowrite, ioclose, ioctx, encoding, options))
LAZY_VOID(xmlSetNs, (xmlNodePtr node, xmlNsPtr ns), (node, ns))
LAZY(int, xmlUnsetProp, (xmlNodePtr node, const xmlChar *name), (node, name))
LAZY(xmlXPathObjectPtr, xmlXPathEvalExpression, (const xmlChar *str, xmlXPathContextPtr ctxt),
    (str, ctxt))
LAZY_VOID(xmlXPathFreeContext, (xmlXPathContextPtr ctxt), (ctxt))
LAZY_VOID(xmlXPathFreeObject, (xmlXPathObjectPtr obj), (obj))
LAZY(xmlXPathContextPtr, xmlXPathNewContext, (xmlDocPtr doc), (doc))
LAZY(int, xmlXPathRegisterNs, (xmlXPathContextPtr ctxt, const xmlChar *prefix,
    const xmlChar *ns_uri), (ctxt, prefix, ns_uri))

/* xmlFree is a variable holding libxml2's deallocator. */
void
xml_free(void *p)
{
	static xmlFreeFunc *freefn;

	LAZYLIB_RESOLVE(lazy_xml2, freefn, "xmlFree");
	(*freefn)(p);
}

const char *
lazy_xml2_version(void)
{
	static const char **version;

	LAZYLIB_RESOLVE(lazy_xml2, version, "xmlParserVersion");
	return *version;
}
