/**
 * Resumes (docs/api.md, Applications; docs/decisions.md, Applications, "Resumes"): upload, replace, read, serve and
 * delete per role, with bad input (a non-PDF renamed `.pdf`, 2 MB + 1 byte, no file, a body over the upload limit);
 * served privately; never through the public file route; the profile's forms without JavaScript.
 */
import { assert, assertEquals } from "@/tests/helpers/assert.ts";
import { createTestApp, createTestUser } from "@/tests/helpers/app.ts";
import { notPdfBytes, pdfBytes, putResume, resumeForm } from "@/tests/fixtures/resumes.ts";
import { MAX_RESUME_BYTES } from "@/lib/resumes/resumes.ts";

/** The refusals of a file that is not a PDF and of one over 2 MB: each says which is wrong. */
const NOT_PDF = {
  error: "This file is not a PDF: upload your resume as a PDF",
  fields: [{ field: "file", message: "This file is not a PDF: upload your resume as a PDF." }],
};
const TOO_LARGE = {
  error: "This file is larger than 2 MB: upload a PDF of at most 2 MB",
  fields: [{ field: "file", message: "This file is larger than 2 MB: upload a PDF of at most 2 MB." }],
};

Deno.test("a guest is 401 on every resume route", async () => {
  await using t = await createTestApp();
  for (
    const [method, path] of [["GET", "/api/me/resume"], ["DELETE", "/api/me/resume"], ["GET", "/api/me/resume/file"]]
  ) {
    const res = await t.json(method, path);
    assertEquals(res.status, 401, `${method} ${path}`);
    await res.body?.cancel();
  }
  const put = await putResume(t, undefined);
  assertEquals(put.status, 401);
  await put.body?.cancel();
});

Deno.test("upload, read, serve privately, replace and delete a resume", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const none = await t.fetch("/api/me/resume", { headers: student.headers });
  assertEquals([none.status, await none.json()], [404, { error: "No resume uploaded" }]);

  const bytes = pdfBytes(5000);
  const put = await putResume(t, student, bytes, "C:\\Users\\sara\\Sara Resume.PDF");
  assertEquals(put.status, 200);
  const { resume } = await put.json();
  assertEquals([resume.name, resume.size], ["Sara Resume.PDF", 5000]);
  assert(Date.parse(resume.uploadedAt) > 0);
  assertEquals(await (await t.fetch("/api/me/resume", { headers: student.headers })).json(), { resume });

  const file = await t.fetch("/api/me/resume/file", { headers: student.headers });
  assertEquals(file.status, 200);
  assertEquals(file.headers.get("content-type"), "application/pdf");
  assertEquals(file.headers.get("cache-control"), "private, no-store");
  assertEquals(file.headers.get("x-content-type-options"), "nosniff");
  assertEquals(
    file.headers.get("content-disposition"),
    `inline; filename="Sara Resume.PDF"; filename*=UTF-8''Sara%20Resume.PDF`,
  );
  assertEquals(new Uint8Array(await file.arrayBuffer()), bytes);

  // The bytes are not reachable through the public file route, whoever asks.
  const { fileId } = (await t.kv.get<{ fileId: string }>(["resumes", student.user.id])).value!;
  const open = await t.fetch(`/api/files/${fileId}`, { headers: student.headers });
  assertEquals(open.status, 404);
  await open.body?.cancel();

  // Another student sees only their own (none).
  const other = await createTestUser(t);
  const theirs = await t.fetch("/api/me/resume/file", { headers: other.headers });
  assertEquals(theirs.status, 404);
  await theirs.body?.cancel();

  const replaced = await putResume(t, student, pdfBytes(6000), "new.pdf");
  assertEquals((await replaced.json()).resume.size, 6000);
  assertEquals(await t.services.files.metadata(fileId), null, "the replaced file is gone: nothing holds it");

  const deleted = await t.json("DELETE", "/api/me/resume", { headers: student.headers });
  assertEquals([deleted.status, await deleted.json()], [200, { success: true }]);
  assertEquals((await t.fetch("/api/me/resume", { headers: student.headers })).status, 404);
  const again = await t.json("DELETE", "/api/me/resume", { headers: student.headers });
  assertEquals([again.status, await again.json()], [200, { success: true }], "deleting none is fine");
  let left = 0;
  for await (const _ of t.kv.list({ prefix: ["file_chunks"] })) left++;
  assertEquals(left, 0, "no file bytes remain");
});

Deno.test("refusals: a non-PDF renamed .pdf, 2 MB + 1 byte, no file, not multipart; exactly 2 MB is fine", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const renamed = await putResume(t, student, notPdfBytes(), "resume.pdf");
  assertEquals([renamed.status, await renamed.json()], [400, NOT_PDF]);
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(64)]);
  const image = await putResume(t, student, png, "photo.pdf");
  assertEquals([image.status, await image.json()], [400, NOT_PDF]);
  const empty = await putResume(t, student, new Uint8Array(), "empty.pdf");
  assertEquals([empty.status, await empty.json()], [400, NOT_PDF]);
  const over = await putResume(t, student, pdfBytes(MAX_RESUME_BYTES + 1));
  assertEquals([over.status, await over.json()], [400, TOO_LARGE]);
  const exact = await putResume(t, student, pdfBytes(MAX_RESUME_BYTES));
  assertEquals(exact.status, 200);
  assertEquals((await exact.json()).resume.size, MAX_RESUME_BYTES);

  const form = new FormData();
  form.set("resume", "not a file");
  const noFile = await t.fetch("/api/me/resume", { method: "PUT", headers: student.headers, body: form });
  assertEquals(noFile.status, 400);
  assertEquals((await noFile.json()).error, "Choose a PDF file to upload");
  const json = await t.json("PUT", "/api/me/resume", { body: { file: "x" }, headers: student.headers });
  assertEquals(json.status, 400);
  await json.body?.cancel();
  const huge = await t.fetch("/api/me/resume", {
    method: "PUT",
    headers: student.headers,
    body: resumeForm(pdfBytes(6 * 1024 * 1024)),
  });
  assertEquals([huge.status, await huge.json()], [413, { error: TOO_LARGE.error }], "the resume's limit");
  assertEquals(
    (await (await t.fetch("/api/me/resume", { headers: student.headers })).json()).resume.size,
    MAX_RESUME_BYTES,
  );
});

Deno.test("the profile's resume forms work without JavaScript", async () => {
  await using t = await createTestApp();
  const student = await createTestUser(t);
  const empty = await (await t.fetch("/profile", { headers: student.headers })).text();
  assert(empty.includes("You have not uploaded a resume yet"));
  assert(empty.includes('action="/profile/resume"') && empty.includes('enctype="multipart/form-data"'));

  const post = (body: FormData) =>
    t.fetch("/profile/resume", { method: "POST", headers: student.headers, body, redirect: "manual" });
  const refused = await post(resumeForm(notPdfBytes(), "cv.pdf"));
  assertEquals([refused.status, refused.headers.get("location")], [303, "/profile?resume=notPdf#resume"]);
  const page = await (await t.fetch("/profile?resume=notPdf", { headers: student.headers })).text();
  assert(page.includes('id="resume-file-error"') && page.includes(NOT_PDF.fields[0].message));
  assert(page.includes('aria-invalid="true"'));
  const large = await post(resumeForm(pdfBytes(MAX_RESUME_BYTES + 1), "cv.pdf"));
  assertEquals(large.headers.get("location"), "/profile?resume=tooLarge#resume", "a PDF over 2 MB: told so");
  const largePage = await (await t.fetch("/profile?resume=tooLarge", { headers: student.headers })).text();
  assert(largePage.includes(TOO_LARGE.fields[0].message));

  const missing = await post(new FormData());
  assertEquals(missing.headers.get("location"), "/profile?resume=missing#resume");

  const saved = await post(resumeForm(pdfBytes(900), "Sara CV.pdf"));
  assertEquals([saved.status, saved.headers.get("location")], [303, "/profile?resume=saved#resume"]);
  const shown = await (await t.fetch("/profile?resume=saved", { headers: student.headers })).text();
  assert(shown.includes("Sara CV.pdf") && shown.includes("Your resume is saved."));
  assert(shown.includes('href="/api/me/resume/file"'));
  assert(shown.includes("(900 bytes, uploaded on"), "the size in English");
  const hindi = await (await t.fetch("/profile?lang=hi", { headers: student.headers })).text();
  assert(hindi.includes("(900 बाइट, ") && !hindi.includes("bytes"), "the size's unit in Hindi");

  const form = new FormData();
  form.set("intent", "delete");
  const deleted = await post(form);
  assertEquals(deleted.headers.get("location"), "/profile?resume=deleted#resume");
  assertEquals((await t.fetch("/api/me/resume", { headers: student.headers })).status, 404);

  const guest = await t.fetch("/profile/resume", {
    method: "POST",
    headers: { origin: t.origin },
    body: resumeForm(pdfBytes()),
    redirect: "manual",
  });
  assertEquals(guest.status, 401, "a guest's post changes nothing");
  await guest.body?.cancel();
});
