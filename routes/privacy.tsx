/** `/privacy`: the legal page of `content/legal/privacy.md` (`components/LegalPage.tsx`). */
import { LegalPage } from "@/components/LegalPage.tsx";
import { legalPageHandler } from "@/lib/http/legal_page.ts";

export const handler = legalPageHandler("privacy");
export default LegalPage;
