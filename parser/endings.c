/*
 * endings.c — how mail ends (endings.h).
 *
 * Every test works on the line folded to lower-case ASCII (names_fold:
 * "Envoyé" is "envoye", "Grüße" is "grusse") and compares words and
 * phrases at word boundaries. The tables hold the forms mail programs
 * write in English, Dutch, German, French, Spanish and Italian; a form
 * that could begin an order is left out (no phrase starts like "A Par").
 */
#include "endings.h"

#include <string.h>

#include "names.h"

/* A line is folded into at most this much; longer lines are read by
 * their beginning. */
#define FOLD_MAX 512
/* A notice is a sentence of at least this many words. */
#define NOTICE_WORDS 6
/* A header wrapped by a mail program spans at most this many lines. */
#define HEADER_LINES 3
/* How far below "From:" the rest of a header block may be. */
#define BLOCK_LINES 6

static bool
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* s (folded, NUL-terminated) begins with phrase, a whole word or words. */
static bool
starts_with(const char *s, const char *phrase)
{
	size_t k = strlen(phrase);

	return strncmp(s, phrase, k) == 0 && !is_letter(s[k]);
}

/* s begins with one of the phrases of list (NULL-terminated). */
static bool
starts_with_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (starts_with(s, *list))
			return true;
	return false;
}

/* s holds word as a whole word (or words). */
static bool
has_word(const char *s, const char *word)
{
	size_t k = strlen(word);
	const char *p;

	for (p = s; (p = strstr(p, word)) != NULL; p++)
		if ((p == s || !is_letter(p[-1])) && !is_letter(p[k]))
			return true;
	return false;
}

static bool
has_any_word(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (has_word(s, *list))
			return true;
	return false;
}

/* An arrow between words, as an order has ("Par - Bur", "Par->Bur"). */
static bool
has_arrow(const char *s)
{
	return strstr(s, " - ") != NULL || strstr(s, "->") != NULL || strstr(s, "=>") != NULL ||
	    strstr(s, " -") != NULL;
}

static size_t
fold(const char *line, size_t len, char *out)
{
	return names_fold(line, len, out, FOLD_MAX);
}

/* "-- ", "--", "__", "________": a signature separator or Outlook's rule. */
static bool
separator(const char *s, size_t n)
{
	size_t i;

	if (n == 2 && s[0] == '-' && s[1] == '-')
		return true;
	if (n < 2)
		return false;
	for (i = 0; i < n && s[i] == '_'; i++)
		;
	return i == n;
}

/* "-----Original Message-----", "---------- Forwarded message ---------":
 * a title between dashes that names the message quoted or forwarded. */
static bool
dashed_title(const char *f)
{
	static const char *const words[] = { "original", "origineel", "oorspronkelijk",
		"ursprungliche", "original-nachricht", "origine", "originale", "forwarded",
		"doorgestuurd", "weitergeleitete", "transfere", "reenviado", "inoltrato",
		"mail original", NULL };
	size_t k = strspn(f, "-");

	return k >= 3 && has_any_word(f + k, words);
}

/* "Begin forwarded message:" and its translations. */
static bool
forward_intro(const char *f)
{
	static const char *const intros[] = { "begin forwarded message",
		"begin doorgestuurd bericht",
		"anfang der weitergeleiteten nachricht", "debut du message reexpedie",
		"inicio del mensaje reenviado", "inizio messaggio inoltrato", NULL };
	size_t n = strlen(f);

	return n > 0 && f[n - 1] == ':' && starts_with_any(f, intros);
}

/* A phone's or mail app's footer. */
static bool
app_footer(const char *f, size_t n)
{
	static const char *const footers[] = { "sent from", "sent via", "sent with",
		"get outlook for", "download outlook for", "verstuurd vanaf", "verzonden vanaf",
		"verzonden met", "verzonden vanuit", "verstuurd met", "outlook voor",
		"haal outlook voor", "von meinem", "gesendet von", "gesendet mit", "outlook fur",
		"holen sie sich outlook", "envoye de", "envoye depuis", "envoye a partir de",
		"envoye avec", "obtenir outlook pour", "telecharger outlook pour", "enviado desde",
		"enviado con", "obtener outlook para", "descargar outlook para", "inviato da",
		"inviato dal", "inviato con", "scarica outlook per", "ottieni outlook per", NULL };

	return n <= 120 && !has_arrow(f) && starts_with_any(f, footers);
}

/* f holds a word of a notice. */
static bool
notice_words(const char *f)
{
	static const char *const stems[] = { "confidential", "confidentiality", "disclaimer",
		"privileged", "intended recipient", "intended solely", "intended only",
		"vertrouwelijk", "vertrouwelijke", "geadresseerde", "vertraulich", "vertrauliche",
		"vertraulichkeitshinweis", "empfanger", "confidentiel", "confidentiels",
		"confidentielle", "destinataire", "destinataires", "confidencial",
		"confidencialidad", "destinatario", "riservato", "riservati", "riservate",
		"riservata", "environment", "milieu", "umwelt", "l'environnement",
		"environnement", "medio ambiente", "all'ambiente", NULL };

	return has_any_word(f, stems);
}

/* A notice a school's server or a program adds: confidentiality, the
 * environment, a virus scanner. A sentence of NOTICE_WORDS words or more,
 * or a heading ("Disclaimer:"), so that a pupil's "keep this
 * confidential" is not one; a virus scanner's line is one at any length. */
static bool
notice(const char *f)
{
	static const char *const scanners[] = { "avast", "virus-free", "virusvrij", "virenfrei",
		NULL };
	static const char *const headings[] = { "disclaimer", "confidentiality notice",
		"vertrouwelijkheidsverklaring", "haftungsausschluss", "avertissement",
		"aviso legal", "aviso de confidencialidad", "avviso di riservatezza", NULL };
	const char *p;
	int words = 0;

	if (has_arrow(f))
		return false;
	if (has_any_word(f, scanners))
		return true;
	for (p = f; *p; p++)
		words += is_letter(*p) && (p == f || !is_letter(p[-1]));
	if (words <= 3 && starts_with_any(f, headings))
		return true;
	return words >= NOTICE_WORDS && notice_words(f);
}

/* The header key k at the start of f ("from", "de"), allowing "*From:*",
 * "De :" and a tab after the colon; returns what follows, or NULL. */
static const char *
header_key(const char *f, const char *const *keys)
{
	const char *p = f + strspn(f, "*");

	for (; *keys; keys++) {
		size_t k = strlen(*keys);
		const char *q = p + k;
		if (strncmp(p, *keys, k) != 0)
			continue;
		q += strspn(q, "*");
		q += strspn(q, " ");
		if (*q == ':')
			return q + 1 + strspn(q + 1, "* \t");
	}
	return NULL;
}

static const char *const from_keys[] = { "from", "van", "von", "de", "da", "mittente", NULL };
static const char *const other_keys[] = { "sent", "date", "to", "cc", "bcc", "subject",
	"reply-to", "verzonden", "datum", "aan", "onderwerp", "gesendet", "an", "betreff",
	"envoye", "a", "objet", "sujet", "pour", "enviado el", "enviado", "fecha", "para",
	"asunto", "inviato", "data", "oggetto", "inviato il", NULL };

/* f holds a digit or an '@' (a date, an address). */
static bool
has_date_or_address(const char *f)
{
	return strpbrk(f, "0123456789@") != NULL;
}

/* "From: ...", then at least two more header lines below it, with a date
 * or an address among them (a pupil's memo "From: England / To: France /
 * Subject: Belgium" has neither). */
static bool
header_block(const struct body_line *lines, int n)
{
	char f[FOLD_MAX];
	const char *rest;
	int i, keys = 0;
	bool dated;

	fold(lines[0].text, lines[0].len, f);
	rest = header_key(f, from_keys);
	if (rest == NULL || *rest == '\0')
		return false;
	dated = has_date_or_address(f);
	for (i = 1; i < n && i <= BLOCK_LINES && lines[i].len > 0; i++) {
		fold(lines[i].text, lines[i].len, f);
		if (header_key(f, other_keys) == NULL && header_key(f, from_keys) == NULL)
			break;
		dated = dated || has_date_or_address(f);
		keys++;
	}
	return keys >= 2 && dated;
}

/* "On Sat, 28 Nov 2026 at 11:00, pouch judge <judge@example.test> wrote:"
 * in six languages, on one line or wrapped over up to HEADER_LINES: the
 * lines it takes, or 0. */
static int
reply_header(const struct body_line *lines, int n)
{
	static const char *const verbs[] = { "wrote", "writes", "schreef", "schrieb",
		"geschreven", "geschrieben", "ecrit", "escribio", "scritto", "scrisse", NULL };
	static const char *const intros[] = { "on", "op", "am", "le", "el", "il", NULL };
	char f[FOLD_MAX], first[FOLD_MAX];
	size_t len = 0, k;
	int i;

	fold(lines[0].text, lines[0].len, first);
	for (i = 0; i < n && i < HEADER_LINES && lines[i].len > 0; i++) {
		if (len + lines[i].len + 2 >= sizeof f)
			break;
		if (i > 0)
			f[len++] = ' ';
		len += fold(lines[i].text, lines[i].len, f + len);
		while (len > 0 && f[len - 1] == ' ')
			len--;
		f[len] = '\0';
		if (len == 0 || f[len - 1] != ':' || !has_any_word(f, verbs))
			continue;
		/* Wrapped: only a header's own first line starts it. */
		if (i > 0 && !starts_with_any(first, intros))
			return 0;
		if (strchr(f, '@') != NULL)
			return i + 1;
		for (k = 0; k < len && !is_digit(f[k]); k++)
			;
		if (k < len && (starts_with_any(first, intros) ||
		    strstr(f, " schreef op ") != NULL))
			return i + 1;
	}
	return 0;
}

bool
ending_starts(const struct body_line *lines, int n)
{
	char f[FOLD_MAX];
	size_t fn;

	if (n <= 0 || lines[0].len == 0 || lines[0].kind == LINE_QUOTED)
		return false;
	if (separator(lines[0].text, lines[0].len))
		return true;
	fn = fold(lines[0].text, lines[0].len, f);
	/* A press message may speak of confidence: no notice ends it. */
	return dashed_title(f) || forward_intro(f) || app_footer(f, fn) ||
	    (lines[0].kind != LINE_PRESS && notice(f)) || header_block(lines, n) ||
	    reply_header(lines, n) > 0;
}

int
ending_quoted_mail(const struct body_line *lines, int n)
{
	int i = reply_header(lines, n), quoted = 0;

	if (i == 0)
		return 0;
	for (; i < n && (lines[i].len == 0 || lines[i].kind == LINE_QUOTED); i++)
		quoted += lines[i].kind == LINE_QUOTED;
	/* Only quoted lines: nothing written under them, or the rest is
	 * itself an end (a signature under the quote). */
	if (quoted == 0 || i == n || ending_starts(&lines[i], n - i))
		return 0;
	return i;
}

bool
ending_greeting(const char *line, size_t len)
{
	static const char *const words[] = {
		/* greetings */
		"hi", "hey", "hello", "hallo", "hoi", "hiya", "dear", "greetings", "good morning",
		"good afternoon", "good evening", "goedemorgen", "goedemiddag", "goedenavond",
		"goedendag", "beste", "geachte", "lieve", "liebe", "lieber", "sehr geehrte",
		"sehr geehrter", "guten morgen", "guten tag", "guten abend", "moin", "servus",
		"bonjour", "bonsoir", "salut", "coucou", "cher", "chere", "hola", "buenos dias",
		"buenas tardes", "buenas", "estimado", "estimada", "querido", "querida", "ciao",
		"salve", "buongiorno", "buonasera", "gentile", "caro", "cara", "here are",
		"hier zijn", "hier sind", "voici", "ecco",
		/* thanks and closings */
		"thanks", "thank you", "thx", "tnx", "thanx", "ty", "many thanks", "cheers",
		"regards", "kind regards", "best regards", "warm regards", "best", "best wishes",
		"all the best", "sincerely", "yours", "love", "bye", "take care", "see you",
		"have a nice", "have a good", "bedankt", "dank", "dankjewel", "dankje", "alvast",
		"groetjes", "groeten", "groet", "gr", "grt", "grtz", "grts", "gegroet", "mvg",
		"vg", "met vriendelijke", "vriendelijke", "hartelijke", "doei", "dag", "tot ziens",
		"tot later", "tot morgen", "tot straks", "fijne", "fijn weekend", "danke",
		"vielen dank", "mfg", "lg", "viele", "herzliche", "freundliche",
		"mit freundlichen", "tschuss", "tschus", "bis bald", "bis dann", "schonen",
		"merci", "cordialement", "bien a vous", "bien cordialement", "amities", "bisous",
		"bises", "a bientot", "a plus", "bonne journee", "bonne soiree", "gracias",
		"muchas gracias", "saludos", "un saludo", "un abrazo", "abrazos", "besos",
		"hasta luego", "hasta pronto", "nos vemos", "atentamente", "grazie",
		"cordiali saluti", "saluti", "distinti saluti", "a presto", "a dopo", "a domani",
		"un abbraccio", "buona giornata", "buona serata", "xoxo", "xxx", "xx", "x",
		NULL };
	char f[FOLD_MAX];
	const char *p;
	int nwords = 0;

	fold(line, len, f);
	if (has_arrow(f) || !starts_with_any(f, words))
		return false;
	for (p = f; *p; p++)
		nwords += is_letter(*p) && (p == f || !is_letter(p[-1]));
	return nwords <= 12;
}
